package dev.lockstep.worker;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import dev.lockstep.test.kafka.KafkaBrokerSpec;
import dev.lockstep.worker.WorkerSettings.Codecs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A cluster that has not finalized {@code group.version} 1 (a Kafka 4.x cluster upgraded
 * from 3.x without finishing the feature upgrade) cannot serve the consumer group
 * protocol: a worker configured for it is refused when it starts, naming the feature
 * and the property, and starts no slot. Its own broker: the shared one has every feature.
 */
class ClusterFeatureRefusalTests {

	private static InJvmKafkaBroker broker;

	@BeforeAll
	static void startBroker() {
		broker = InJvmKafkaBroker.start(KafkaBrokerSpec.defaults().withFeature(ClusterFeatures.GROUP_VERSION, 0));
	}

	@AfterAll
	static void stopBroker() {
		broker.close();
	}

	@Test
	void consumerGroupProtocolIsRefusedAtStartWithoutGroupVersionOne() {
		Worker worker = new Worker(settings(Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer")),
				RecordProcessor.of((byte[] value) -> value));
		assertThatExceptionOfType(MissingClusterFeatureException.class).isThrownBy(worker::start)
			.withMessageContaining("group.protocol=consumer")
			.withMessageContaining("group.version=0")
			.withMessageContaining("group.protocol=classic")
			.satisfies((ex) -> assertThat(ex.getFeature()).isEqualTo("group.version"))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("group.protocol"));
		assertThat(worker.isStarted()).isFalse();
		assertThat(worker.isRunning()).isFalse();
		assertThat(worker.state().cluster().level(ClusterFeatures.GROUP_VERSION)).isZero();
	}

	@Test
	void classicGroupProtocolStartsOnTheSameCluster() {
		Worker worker = new Worker(settings(Map.of()), RecordProcessor.of((byte[] value) -> value));
		try {
			worker.start();
			assertThat(worker.isStarted()).isTrue();
			assertThat(worker.state().cluster().isRead()).isTrue();
			assertThat(worker.state().cluster().level(ClusterFeatures.GROUP_VERSION)).isZero();
		}
		finally {
			worker.stop();
		}
	}

	@Test
	void noWorkerStartsWhenOneOfTheApplicationsWorkersIsRefused() {
		Worker classic = new Worker(settings(Map.of()), RecordProcessor.of((byte[] value) -> value));
		Worker consumer = new Worker(settings(Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer")),
				RecordProcessor.of((byte[] value) -> value));
		LockstepWorkers workers = new LockstepWorkers(Map.of("classic", classic, "consumer", consumer),
				Set.of("classic", "consumer"));
		assertThatExceptionOfType(MissingClusterFeatureException.class).isThrownBy(workers::start);
		assertThat(classic.isStarted()).isFalse();
		assertThat(consumer.isStarted()).isFalse();
		assertThat(workers.isRunning()).isFalse();
	}

	private static WorkerSettings settings(Map<String, Object> consumerExtras) {
		Map<String, Object> consumer = new HashMap<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
				broker.bootstrapServers()));
		consumer.putAll(consumerExtras);
		String name = UUID.randomUUID().toString();
		return WorkerSettings.builder("refused")
			.sourceTopics("in-" + name)
			.destination("out-" + name)
			.groupId("group-" + name)
			.transactionalId("tx-" + name)
			.instance(InstanceIdentity.configured("i", "test"))
			.consumerProperties(consumer)
			.producerProperties(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))
			.codecs(new Codecs(new ByteArrayDeserializer(), new ByteArrayDeserializer(), new ByteArraySerializer(),
					new ByteArraySerializer(), List.of()))
			.shutdownTimeout(Duration.ofSeconds(30))
			.build();
	}

}
