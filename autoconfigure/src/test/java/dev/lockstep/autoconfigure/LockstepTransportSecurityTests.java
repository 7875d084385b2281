package dev.lockstep.autoconfigure;

import dev.lockstep.autoconfigure.health.LockstepHealthContributorAutoConfiguration;
import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.autoconfigure.validation.LockstepConfigurationFailureAnalyzerAccess;
import dev.lockstep.worker.ValueTransformer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lockstep.security.require-encryption} covers every client Lockstep builds: each
 * worker's consumer and producer, the named producers, the listener containers' consumer
 * and producer, the Kafka health indicator's admin client, Spring's {@code KafkaAdmin}
 * creating {@code lockstep.topics}, and every registry URL; and a registry URL is never echoed with its
 * password.
 */
class LockstepTransportSecurityTests {

	private static final String REMOTE_PLAINTEXT = "10.1.2.3:9092";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockstepInstanceAutoConfiguration.class, KafkaAutoConfiguration.class, LockstepPropertiesAutoConfiguration.class,
				LockstepRegistryAutoConfiguration.class, LockstepWorkersAutoConfiguration.class,
				LockstepProducersAutoConfiguration.class, LockstepListenerAutoConfiguration.class))
		.withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:1", "spring.kafka.admin.auto-create=false",
				"lockstep.security.require-encryption=true");

	private final ApplicationContextRunner withWorker = this.runner
		.withBean("normalizer", ValueTransformer.class, () -> (ValueTransformer<String, String>) (value) -> value)
		.withPropertyValues("lockstep.workers.normalizer.source-topics=orders",
				"lockstep.workers.normalizer.destination=normalized", "lockstep.workers.normalizer.auto-startup=false",
				"lockstep.workers.normalizer.key.codec=string", "lockstep.workers.normalizer.value.codec=string");

	@Test
	void loopbackBrokersStartWithEncryptionRequired() {
		this.withWorker.withPropertyValues("lockstep.producers.orders.key.codec=string")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void plaintextBootstrapInAWorkersConsumerMapIsRefused() {
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.consumer.bootstrap.servers=" + REMOTE_PLAINTEXT)
			.run((context) -> assertRefused(context.getStartupFailure(),
					"lockstep.workers.normalizer.consumer.bootstrap.servers", "worker 'normalizer' consumer"));
	}

	@Test
	void plaintextBootstrapInAWorkersProducerMapIsRefused() {
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.producer.bootstrap.servers=" + REMOTE_PLAINTEXT)
			.run((context) -> assertRefused(context.getStartupFailure(),
					"lockstep.workers.normalizer.producer.bootstrap.servers", "worker 'normalizer' producer"));
	}

	@Test
	void plaintextProtocolInAWorkersProducerMapIsRefusedThoughSpringBootsIsTls() {
		this.withWorker
			.withPropertyValues("spring.kafka.bootstrap-servers=kafka.example:9093", "spring.kafka.security.protocol=SSL",
					"lockstep.workers.normalizer.producer.security.protocol=PLAINTEXT")
			.run((context) -> assertRefused(context.getStartupFailure(), "spring.kafka.bootstrap-servers",
					"worker 'normalizer' producer"));
		this.withWorker
			.withPropertyValues("spring.kafka.bootstrap-servers=kafka.example:9093", "spring.kafka.security.protocol=SSL")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void plaintextBootstrapInANamedProducersPropertiesIsRefused() {
		this.runner
			.withPropertyValues("lockstep.producers.orders.key.codec=string",
					"lockstep.producers.orders.properties.bootstrap.servers=" + REMOTE_PLAINTEXT)
			.run((context) -> assertRefused(context.getStartupFailure(),
					"lockstep.producers.orders.properties.bootstrap.servers", "producer 'orders'"));
	}

	@Test
	void plaintextBootstrapOfTheListenerContainersConsumerIsRefused() {
		this.runner.withPropertyValues("spring.kafka.consumer.bootstrap-servers=" + REMOTE_PLAINTEXT)
			.run((context) -> assertRefused(context.getStartupFailure(), "spring.kafka.consumer.bootstrap-servers",
					"listener containers' consumer"));
	}

	@Test
	void plaintextBootstrapOfTheListenerContainersProducerIsRefused() {
		this.runner.withPropertyValues("spring.kafka.producer.bootstrap-servers=" + REMOTE_PLAINTEXT)
			.run((context) -> assertRefused(context.getStartupFailure(), "spring.kafka.producer.bootstrap-servers",
					"listener containers' producer"));
	}

	@Test
	void plaintextAdminOfTheKafkaHealthIndicatorIsRefusedThoughTheOtherClientsUseTls() {
		ApplicationContextRunner withHealth = this.runner
			.withConfiguration(AutoConfigurations.of(LockstepHealthContributorAutoConfiguration.class))
			.withPropertyValues("spring.kafka.bootstrap-servers=kafka.example:9093",
					"spring.kafka.consumer.security.protocol=SSL", "spring.kafka.producer.security.protocol=SSL");
		withHealth.run((context) -> assertRefused(context.getStartupFailure(), "spring.kafka.bootstrap-servers",
				"the Kafka health indicator's admin client"));
		withHealth.withPropertyValues("spring.kafka.admin.security.protocol=SSL")
			.run((context) -> assertThat(context).hasNotFailed().hasBean("kafkaHealthIndicator"));
	}

	@Test
	void plaintextAdminCreatingLockstepTopicsIsRefusedThoughTheOtherClientsUseTls() {
		ApplicationContextRunner withTopics = this.runner
			.withConfiguration(AutoConfigurations.of(LockstepTopicsAutoConfiguration.class))
			.withPropertyValues("spring.kafka.bootstrap-servers=kafka.example:9093",
					"spring.kafka.consumer.security.protocol=SSL", "spring.kafka.producer.security.protocol=SSL",
					"lockstep.topics.orders.partitions=1");
		withTopics.run((context) -> assertRefused(context.getStartupFailure(), "spring.kafka.bootstrap-servers",
				"Spring's KafkaAdmin"));
		withTopics.withPropertyValues("spring.kafka.admin.security.protocol=SSL")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void anHttpRegistryAmongSeveralUrlsIsRefused() {
		this.runner.withPropertyValues("lockstep.registry.url=https://registry-a.example:8081,http://registry-b.example:8081")
			.run((context) -> assertRefused(context.getStartupFailure(), "lockstep.registry.url", "registry-b.example"));
	}

	@Test
	void anUnparsableRegistryUrlIsReportedWithoutItsPassword() {
		for (String requireEncryption : new String[] { "true", "false" }) {
			this.runner
				.withPropertyValues("lockstep.security.require-encryption=" + requireEncryption,
						"lockstep.registry.url=https://svc:hunter2@registry .example:8081")
				.run((context) -> {
					assertThat(context).hasFailed();
					Throwable cause = context.getStartupFailure();
					while (cause != null) {
						assertThat(String.valueOf(cause.getMessage())).doesNotContain("hunter2");
						cause = cause.getCause();
					}
					FailureAnalysis analysis = new LockstepConfigurationFailureAnalyzerAccess()
						.analyze(context.getStartupFailure());
					assertThat(analysis).isNotNull();
					assertThat(analysis.getDescription()).contains("lockstep.registry.url", "svc:****@")
						.doesNotContain("hunter2");
				});
		}
	}

	private static void assertRefused(Throwable failure, String property, String reason) {
		LockstepConfigurationException refused = LockstepConfigurationFailureAnalyzerAccess.refusalIn(failure);
		assertThat(refused.getProperty()).isEqualTo(property);
		assertThat(refused.getReason()).contains(reason, "require-encryption");
		assertThat(refused.getAction()).contains("TLS");
	}

}
