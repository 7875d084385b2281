package dev.lockstep.autoconfigure;

import java.time.Duration;

import dev.lockstep.autoconfigure.endpoint.LockstepEndpoint;
import dev.lockstep.autoconfigure.health.KafkaClusterHealthIndicator;
import dev.lockstep.autoconfigure.health.LockstepHealthContributorAutoConfiguration;
import dev.lockstep.autoconfigure.validation.LockstepConfigurationFailureAnalyzerAccess;
import dev.lockstep.test.kafka.InJvmKafkaBroker;
import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.KafkaBrokerSpec;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.worker.ClusterFeatures;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.MissingClusterFeatureException;
import dev.lockstep.worker.ValueTransformer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The cluster's finalized features through Spring Boot: shown for each worker on
 * {@code /actuator/lockstep} (and so in the workers' health details) and in the Kafka
 * health details; a worker configuration the cluster cannot serve refused at start-up
 * with a report naming the feature and the property.
 */
@ExtendWith(SharedKafkaBroker.class)
class LockstepClusterFeaturesTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockstepInstanceAutoConfiguration.class, KafkaAutoConfiguration.class,
				LockstepPropertiesAutoConfiguration.class, LockstepRegistryAutoConfiguration.class,
				LockstepWorkersAutoConfiguration.class, LockstepHealthContributorAutoConfiguration.class))
		.withPropertyValues("lockstep.workers.normalizer.source-topics=features-in",
				"lockstep.workers.normalizer.destination=features-out", "lockstep.workers.normalizer.key.codec=string",
				"lockstep.workers.normalizer.value.codec=string", "lockstep.workers.normalizer.shutdown-timeout=5s")
		.withBean("normalizer", ValueTransformer.class, () -> (ValueTransformer<Object, Object>) (value) -> value);

	@Test
	void eachWorkerAndTheKafkaHealthShowTheClustersFeatures(KafkaBroker broker) {
		this.runner.withPropertyValues("spring.kafka.bootstrap-servers=" + broker.bootstrapServers())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ClusterFeatures cluster = new LockstepEndpoint(context.getBean(LockstepWorkers.class)).workers()
					.get("normalizer")
					.cluster();
				assertThat(cluster.isRead()).as(cluster.toString()).isTrue();
				assertThat(cluster.finalized()).containsEntry(ClusterFeatures.TRANSACTION_VERSION, (short) 2);
				KafkaClusterHealthIndicator kafka = context.getBean(KafkaClusterHealthIndicator.class);
				await().atMost(Duration.ofSeconds(60)).until(() -> kafka.health().getStatus().equals(Status.UP));
				Health health = kafka.health();
				assertThat(health.getDetails().get("features")).isEqualTo(cluster);
			});
	}

	@Test
	void consumerGroupProtocolIsRefusedAtStartUpOnAClusterWithoutGroupVersionOne() {
		try (InJvmKafkaBroker broker = InJvmKafkaBroker
			.start(KafkaBrokerSpec.defaults().withFeature(ClusterFeatures.GROUP_VERSION, 0))) {
			this.runner
				.withPropertyValues("spring.kafka.bootstrap-servers=" + broker.bootstrapServers(),
						"lockstep.workers.normalizer.consumer.group.protocol=consumer")
				.run((context) -> {
					assertThat(context).hasFailed();
					MissingClusterFeatureException refusal = causeOf(context.getStartupFailure());
					assertThat(refusal.getFeature()).isEqualTo(ClusterFeatures.GROUP_VERSION);
					FailureAnalysis analysis = LockstepConfigurationFailureAnalyzerAccess
						.analyzeMissingClusterFeature(context.getStartupFailure());
					assertThat(analysis.getDescription()).contains("Feature: group.version")
						.contains("Property: group.protocol")
						.contains("Worker normalizer is configured with group.protocol=consumer")
						.contains("the cluster has group.version=0");
					assertThat(analysis.getAction()).contains("group.protocol=classic")
						.contains("kafka-features.sh upgrade --feature group.version=1");
				});
		}
	}

	private static MissingClusterFeatureException causeOf(Throwable failure) {
		Throwable cause = failure;
		while (cause != null && !(cause instanceof MissingClusterFeatureException)) {
			cause = cause.getCause();
		}
		assertThat(cause).as(() -> "no MissingClusterFeatureException in " + failure).isNotNull();
		return (MissingClusterFeatureException) cause;
	}

}
