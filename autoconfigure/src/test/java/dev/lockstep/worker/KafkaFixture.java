package dev.lockstep.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import dev.lockstep.test.kafka.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import static org.awaitility.Awaitility.await;

/**
 * Plain kafka-clients helpers for worker tests: topics, input records, and what a
 * {@code read_committed} reader sees.
 */
final class KafkaFixture {

	private final KafkaBroker broker;

	KafkaFixture(KafkaBroker broker) {
		this.broker = broker;
	}

	String bootstrapServers() {
		return this.broker.bootstrapServers();
	}

	void createTopics(int partitions, String... topics) {
		try (Admin admin = admin()) {
			admin.createTopics(List.of(topics)
				.stream()
				.map((topic) -> new NewTopic(topic, Optional.of(partitions), Optional.empty()))
				.toList()).all().get();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	void produce(List<ProducerRecord<byte[], byte[]>> records) {
		Properties props = new Properties();
		props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
		props.put(ProducerConfig.ACKS_CONFIG, "all");
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			for (ProducerRecord<byte[], byte[]> record : records) {
				producer.send(record).get();
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Read every partition of a topic from the beginning with read_committed and no
	 * group, until {@code expected} records arrived and one more poll brings nothing.
	 */
	List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic, int expected) {
		try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
			List<TopicPartition> partitions = consumer.partitionsFor(topic)
				.stream()
				.map((info) -> new TopicPartition(topic, info.partition()))
				.toList();
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
			await().atMost(Duration.ofSeconds(60)).until(() -> {
				consumer.poll(Duration.ofMillis(200)).forEach(records::add);
				return records.size() >= expected;
			});
			consumer.poll(Duration.ofMillis(500)).forEach(records::add);
			return records;
		}
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

	private Admin admin() {
		Properties props = new Properties();
		props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
		return Admin.create(props);
	}

}
