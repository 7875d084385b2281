package dev.lockstep.benchmarks.throughput;

import java.util.List;
import java.util.stream.Collectors;

import dev.lockstep.benchmarks.Order;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Variant C: plain Spring Boot with spring-kafka, configured the documented way in
 * {@code bench-spring.yml}: a batch {@code @KafkaListener} whose container runs each
 * batch in a transaction of the auto-configured {@code KafkaTransactionManager}, sending
 * through the auto-configured {@code KafkaTemplate}. Lockstep's auto-configurations are
 * excluded so that nothing of Lockstep runs.
 */
final class SpringListenerVariant implements Variant.Runner {

	@Override
	public AutoCloseable start(RunSpec spec) {
		String lockstep = ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())
			.getCandidates()
			.stream()
			.filter((name) -> name.startsWith("dev.lockstep."))
			.collect(Collectors.joining(","));
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.properties("spring.config.name=bench-spring", "spring.autoconfigure.exclude=" + lockstep)
			.run(SpringArguments.of(spec));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

		@Bean
		OrderListener orderListener(KafkaTemplate<byte[], Order> template, @Value("${bench.output}") String output) {
			return new OrderListener(template, output);
		}

	}

	static class OrderListener {

		private final KafkaTemplate<byte[], Order> template;

		private final String output;

		OrderListener(KafkaTemplate<byte[], Order> template, String output) {
			this.template = template;
			this.output = output;
		}

		@KafkaListener(topics = "${bench.input}", batch = "true")
		void onBatch(List<ConsumerRecord<byte[], Order>> records) {
			for (ConsumerRecord<byte[], Order> record : records) {
				this.template.send(new ProducerRecord<>(this.output, null, record.key(),
						Normalization.normalize(record.value()), record.headers()));
			}
		}

	}

}
