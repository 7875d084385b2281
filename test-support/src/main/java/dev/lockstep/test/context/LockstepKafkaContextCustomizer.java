package dev.lockstep.test.context;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SecuredKafkaBroker;
import dev.lockstep.test.kafka.TestBrokers;
import dev.lockstep.test.kafka.WorkerAcls;
import org.apache.kafka.common.acl.AclBinding;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Starts a broker for a test's application context and registers it, before the
 * context refreshes, as a {@link TestKafka} bean (closed with the context, after every
 * bean registered later) and as the context's {@link KafkaConnectionDetails}; a secured
 * broker instead as {@code spring.kafka.*} properties of a SCRAM user holding the
 * requested ACLs. Equal customizers let Spring's context cache share one context, and so
 * one broker.
 */
final class LockstepKafkaContextCustomizer implements ContextCustomizer {

	/** The application's user on a secured broker. */
	static final String USER = "lockstep-test";

	private final List<String> topics;

	private final int partitions;

	private final boolean secured;

	private final List<WorkerAcls> acls;

	LockstepKafkaContextCustomizer(List<String> topics, int partitions, boolean secured, List<WorkerAcls> acls) {
		this.topics = topics;
		this.partitions = partitions;
		this.secured = secured;
		this.acls = acls;
	}

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		KafkaBroker broker = this.secured ? SecuredKafkaBroker.start() : TestBrokers.start();
		TestKafka kafka = new TestKafka(broker);
		Map<String, Object> securedProperties = null;
		try {
			kafka.createTopics(this.topics, this.partitions);
			if (broker instanceof SecuredKafkaBroker securedBroker) {
				securedProperties = grantApplicationUser(securedBroker);
			}
		}
		catch (RuntimeException ex) {
			kafka.close();
			throw ex;
		}
		DefaultListableBeanFactory beanFactory = (DefaultListableBeanFactory) context.getBeanFactory();
		beanFactory.registerSingleton("lockstepTestKafka", kafka);
		// Registered first, so destroyed last: the broker outlives every client in the context.
		beanFactory.registerDisposableBean("lockstepTestKafka", kafka::close);
		if (securedProperties != null) {
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("lockstepTestKafka", securedProperties));
		}
		else {
			KafkaConnectionDetails connectionDetails = () -> List.of(broker.bootstrapServers());
			beanFactory.registerSingleton("lockstepTestKafkaConnectionDetails", connectionDetails);
		}
	}

	/** Create the application's SCRAM user with its ACLs; return its client properties. */
	private Map<String, Object> grantApplicationUser(SecuredKafkaBroker broker) {
		byte[] random = new byte[12];
		new SecureRandom().nextBytes(random);
		String password = HexFormat.of().formatHex(random);
		broker.addScramUser(USER, password);
		List<AclBinding> bindings = this.acls.stream().flatMap((acls) -> acls.bindings().stream()).toList();
		if (!bindings.isEmpty()) {
			broker.grant(bindings);
		}
		return new LinkedHashMap<>(SecuredKafkaBroker.springKafkaProperties(broker.scramClient(USER, password)));
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof LockstepKafkaContextCustomizer that && this.topics.equals(that.topics)
				&& this.partitions == that.partitions && this.secured == that.secured && this.acls.equals(that.acls);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.topics, this.partitions, this.secured, this.acls);
	}

}
