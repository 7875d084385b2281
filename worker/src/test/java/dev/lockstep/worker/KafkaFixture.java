package dev.lockstep.worker;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import dev.lockstep.test.context.TestKafka;
import dev.lockstep.test.kafka.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Plain kafka-clients helpers for worker tests: topics, input records, and what a
 * {@code read_committed} reader sees.
 */
final class KafkaFixture {

	// Topics, input and the read_committed reader are test-support's; the worker tests
	// add end offsets and the group's offsets.
	private final TestKafka kafka;

	KafkaFixture(KafkaBroker broker) {
		this.kafka = new TestKafka(broker);
	}

	String bootstrapServers() {
		return this.kafka.bootstrapServers();
	}

	void createTopics(int partitions, String... topics) {
		this.kafka.createTopics(List.of(topics), partitions);
	}

	void produce(List<ProducerRecord<byte[], byte[]>> records) {
		this.kafka.send(records);
	}

	/**
	 * Read every partition of a topic from the beginning with read_committed and no
	 * group, until {@code expected} records arrived and the rest of the log is read.
	 */
	List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic, int expected) {
		return this.kafka.readCommitted(topic, expected, Duration.ofSeconds(60));
	}

	/** The log end offsets of a topic: records plus transaction markers. */
	Map<Integer, Long> endOffsets(String topic) {
		try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
			Map<Integer, Long> ends = new HashMap<>();
			consumer.endOffsets(consumer.partitionsFor(topic)
				.stream()
				.map((info) -> new TopicPartition(topic, info.partition()))
				.toList()).forEach((partition, offset) -> ends.put(partition.partition(), offset));
			return ends;
		}
	}

	Map<TopicPartition, Long> committedOffsets(String group) {
		try (Admin admin = admin()) {
			Map<TopicPartition, Long> offsets = new HashMap<>();
			Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
				.partitionsToOffsetAndMetadata()
				.get();
			committed.forEach((partition, offset) -> {
				if (offset != null) {
					offsets.put(partition, offset.offset());
				}
			});
			return offsets;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The settings of a worker with string keys and values on a broker, reading its input
	 * from the beginning.
	 * @param bootstrapServers the broker
	 * @param name the worker's name
	 * @param input the topic it reads
	 * @param output its destination
	 * @param group its group, and the base of its transactional ids
	 * @return a builder of the settings, for a test to add its own
	 */
	static WorkerSettings.Builder stringWorker(String bootstrapServers, String name, String input, String output,
			String group) {
		Map<String, Object> clients = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
		return WorkerSettings.builder(name)
			.sourceTopics(input)
			.destination(output)
			.groupId(group)
			.instance(InstanceIdentity.configured("i", "test"))
			.consumerProperties(clients)
			.producerProperties(clients)
			.codecs(new WorkerSettings.Codecs(new StringDeserializer(), new StringDeserializer(),
					new StringSerializer(), new StringSerializer(), WorkerTests.INVALID_DATA));
	}

	Map<String, Object> clientProperties() {
		Map<String, Object> props = new HashMap<>();
		props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
		return props;
	}

	private KafkaConsumer<byte[], byte[]> consumer() {
		Properties props = new Properties();
		props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
		props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
	}

	/** The type of a group as its coordinator reports it: classic or consumer (KIP-848). */
	GroupType groupType(String group) {
		try (Admin admin = admin()) {
			return admin.describeConsumerGroups(List.of(group)).all().get().get(group).type();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Each member's assignment as the group's coordinator reports it, by the member's
	 * {@code group.instance.id} (its member id for a dynamic member).
	 */
	Map<String, Set<TopicPartition>> assignments(String group) {
		try (Admin admin = admin()) {
			Map<String, Set<TopicPartition>> assignments = new HashMap<>();
			admin.describeConsumerGroups(List.of(group)).all().get().get(group).members().forEach((member) -> {
				assignments.put(member.groupInstanceId().orElse(member.consumerId()),
						member.assignment().topicPartitions());
			});
			return assignments;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private Admin admin() {
		Properties props = new Properties();
		props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
		return Admin.create(props);
	}

}
