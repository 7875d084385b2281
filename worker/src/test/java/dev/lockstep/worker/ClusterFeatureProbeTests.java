package dev.lockstep.worker;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The admin client that reads a worker's cluster features connects as the worker's
 * consumer does: every setting but those only a consumer has, whatever form the security
 * settings take; and it waits at most ten seconds.
 */
class ClusterFeatureProbeTests {

	@Test
	void keepsEverySettingButTheConsumersOwnIncludingOnesKafkaDoesNotName() {
		Object sslBundle = new Object();
		Map<String, Object> consumer = Map.of("bootstrap.servers", "broker:9093", "security.protocol", "SASL_SSL",
				"sasl.mechanism", "SCRAM-SHA-512", "sasl.jaas.config", "secret", "config.providers", "file",
				"config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider",
				"org.springframework.boot.ssl.SslBundle", sslBundle, "group.id", "orders", "isolation.level",
				"read_committed", "key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
		Map<String, Object> admin = ClusterFeatureProbe.adminConfig(consumer, "normalizer");
		assertThat(admin).containsEntry("bootstrap.servers", "broker:9093")
			.containsEntry("security.protocol", "SASL_SSL")
			.containsEntry("sasl.mechanism", "SCRAM-SHA-512")
			.containsEntry("sasl.jaas.config", "secret")
			.containsEntry("config.providers", "file")
			.containsKey("config.providers.file.class")
			.containsEntry("org.springframework.boot.ssl.SslBundle", sslBundle)
			.containsEntry("client.id", "lockstep-normalizer-features")
			.doesNotContainKeys("group.id", "isolation.level", "key.deserializer");
	}

	@Test
	void waitsAtMostTenSecondsOrLessWhenTheConsumersApiTimeoutIsLower() {
		assertThat(ClusterFeatureProbe.timeout(Map.of())).isEqualTo(Duration.ofSeconds(10));
		assertThat(ClusterFeatureProbe.timeout(Map.of("default.api.timeout.ms", "60000")))
			.isEqualTo(Duration.ofSeconds(10));
		assertThat(ClusterFeatureProbe.timeout(Map.of("default.api.timeout.ms", 3000))).isEqualTo(Duration.ofSeconds(3));
		// Not a number: the consumer itself refuses it when it is built.
		assertThat(ClusterFeatureProbe.timeout(Map.of("default.api.timeout.ms", "3s")))
			.isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void anUnreachableClusterRefusesNothingAndSaysWhy() {
		WorkerSettings settings = MockSlot.settings(WorkerSettings.InvalidInputPolicy.Mode.BLOCK,
				new WorkerSettings.TransactionSizing(100, Duration.ofSeconds(1)), MockSlot.strings())
			.toBuilder()
			.consumerProperties(Map.of("bootstrap.servers", "127.0.0.1:1", "default.api.timeout.ms", 1000))
			.build();
		ClusterFeatures features = ClusterFeatureProbe.read(settings);
		assertThat(features.isRead()).isFalse();
		assertThat(features.unreadBecause()).isNotBlank();
		assertThat(features.finalized()).isEmpty();
	}

}
