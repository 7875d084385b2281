package dev.lockstep.autoconfigure.validation;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Settings of the newest client lines that a worker's clients cannot live with, refused
 * by key (whether the client line on the class path knows the key is the unknown-key
 * check's concern: Kafka 4.4 clients know {@code bootstrap.resolve.timeout.ms}).
 */
class KafkaPropertiesValidatorTests {

	// Only configured values are refused: the keys set where a user sets them.
	private final KafkaPropertiesValidator validator = new KafkaPropertiesValidator(new PropertyOrigins(
			new MockEnvironment().withProperty("lockstep.workers.normalizer.consumer.bootstrap.resolve.timeout.ms", "30000")
				.withProperty("spring.kafka.producer.properties.bootstrap.resolve.timeout.ms", "30000")
				.withProperty("lockstep.workers.other.consumer.bootstrap.resolve.timeout.ms", "0")));

	@Test
	void asynchronousBootstrapResolutionIsRefusedForAWorkersConsumerAndProducer() {
		assertThatExceptionOfType(LockstepConfigurationException.class)
			.isThrownBy(() -> this.validator.checkWorkerConsumer("normalizer",
					Map.of("bootstrap.resolve.timeout.ms", "30000")))
			.satisfies((ex) -> assertThat(ex.getProperty())
				.isEqualTo("lockstep.workers.normalizer.consumer.bootstrap.resolve.timeout.ms"))
			.withMessageContaining("re-created");
		assertThatExceptionOfType(LockstepConfigurationException.class)
			.isThrownBy(() -> this.validator.checkTransactionalProducer("worker 'normalizer'",
					"lockstep.workers.normalizer.producer", Map.of("bootstrap.resolve.timeout.ms", 30000)))
			.satisfies((ex) -> assertThat(ex.getProperty())
				.isEqualTo("spring.kafka.producer.properties.bootstrap.resolve.timeout.ms"));
	}

	@Test
	void bootstrapResolvedWhenTheClientIsBuiltIsAccepted() {
		assertThatNoException().isThrownBy(() -> this.validator.checkWorkerConsumer("other",
				Map.of("bootstrap.resolve.timeout.ms", "0")));
	}

}
