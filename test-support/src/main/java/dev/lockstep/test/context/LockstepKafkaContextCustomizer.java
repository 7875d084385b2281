package dev.lockstep.test.context;

import java.util.List;
import java.util.Objects;

import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.TestBrokers;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Starts a broker for a test's application context and registers it, before the
 * context refreshes, as a {@link TestKafka} bean (closed with the context, after every
 * bean registered later) and as the context's {@link KafkaConnectionDetails}. Equal
 * customizers let Spring's context cache share one context, and so one broker.
 */
final class LockstepKafkaContextCustomizer implements ContextCustomizer {

	private final List<String> topics;

	private final int partitions;

	LockstepKafkaContextCustomizer(List<String> topics, int partitions) {
		this.topics = topics;
		this.partitions = partitions;
	}

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		KafkaBroker broker = TestBrokers.start();
		TestKafka kafka = new TestKafka(broker);
		try {
			kafka.createTopics(this.topics, this.partitions);
		}
		catch (RuntimeException ex) {
			kafka.close();
			throw ex;
		}
		DefaultListableBeanFactory beanFactory = (DefaultListableBeanFactory) context.getBeanFactory();
		beanFactory.registerSingleton("lockstepTestKafka", kafka);
		// Registered first, so destroyed last: the broker outlives every client in the context.
		beanFactory.registerDisposableBean("lockstepTestKafka", kafka::close);
		KafkaConnectionDetails connectionDetails = () -> List.of(broker.bootstrapServers());
		beanFactory.registerSingleton("lockstepTestKafkaConnectionDetails", connectionDetails);
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof LockstepKafkaContextCustomizer that && this.topics.equals(that.topics)
				&& this.partitions == that.partitions;
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.topics, this.partitions);
	}

}
