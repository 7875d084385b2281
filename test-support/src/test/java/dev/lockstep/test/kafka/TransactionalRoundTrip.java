package dev.lockstep.test.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;

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
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Exercises what every broker Lockstep tests against must support: a consume-transform-produce
 * transaction whose input offsets are committed in it, and an aborted transaction that a
 * {@code read_committed} reader never sees.
 */
final class TransactionalRoundTrip {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private final String bootstrapServers;

	private final String input = "input-" + UUID.randomUUID();

	private final String output = "output-" + UUID.randomUUID();

	private final String group = "group-" + UUID.randomUUID();

	TransactionalRoundTrip(KafkaBroker broker) {
		this.bootstrapServers = broker.bootstrapServers();
	}

	String input() {
		return this.input;
	}

	String output() {
		return this.output;
	}

	String group() {
		return this.group;
	}

	/**
	 * Run the whole check: committed output and offsets visible, aborted output invisible.
	 */
	void assertCommittedVisibleAndAbortedInvisible() {
		createTopics();
		produceInput("a", "b", "c");
		try (KafkaProducer<String, String> producer = transactionalProducer("tx-" + UUID.randomUUID());
				KafkaConsumer<String, String> consumer = consumer(this.group, "read_committed")) {
			producer.initTransactions();
			consumer.subscribe(List.of(this.input));
			List<ConsumerRecord<String, String>> consumed = pollUntil(consumer, 3);

			producer.beginTransaction();
			for (ConsumerRecord<String, String> record : consumed) {
				producer.send(new ProducerRecord<>(this.output, record.key(), record.value().toUpperCase()));
			}
			producer.sendOffsetsToTransaction(Map.of(new TopicPartition(this.input, 0), new OffsetAndMetadata(3)),
					consumer.groupMetadata());
			producer.commitTransaction();

			producer.beginTransaction();
			producer.send(new ProducerRecord<>(this.output, "k", "aborted"));
			producer.flush();
			producer.abortTransaction();

			producer.beginTransaction();
			producer.send(new ProducerRecord<>(this.output, "k", "after-abort"));
			producer.commitTransaction();
		}
		assertThat(readAll(this.output, "read_committed", 4)).containsExactly("A", "B", "C", "after-abort");
		// The aborted record did reach the log: only isolation hides it.
		assertThat(readAll(this.output, "read_uncommitted", 5)).contains("aborted");
		assertThat(committedOffset()).isEqualTo(3);
	}

	void createTopics() {
		try (Admin admin = admin()) {
			admin.createTopics(List.of(new NewTopic(this.input, Optional.of(1), Optional.empty()),
					new NewTopic(this.output, Optional.of(1), Optional.empty())))
				.all()
				.get();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	void produceInput(String... values) {
		Properties props = new Properties();
		props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers);
		props.put(ProducerConfig.ACKS_CONFIG, "all");
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
				new StringSerializer())) {
			for (String value : values) {
				producer.send(new ProducerRecord<>(this.input, value, value)).get();
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	KafkaProducer<String, String> transactionalProducer(String transactionalId) {
		Properties props = new Properties();
		props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers);
		props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
		props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
		return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
	}

	/**
	 * Read a topic from the beginning, without a group, until {@code expected} values arrived
	 * and nothing more arrives in the next poll.
	 */
	List<String> readAll(String topic, String isolation, int expected) {
		try (KafkaConsumer<String, String> consumer = consumer(null, isolation)) {
			TopicPartition partition = new TopicPartition(topic, 0);
			consumer.assign(List.of(partition));
			consumer.seekToBeginning(List.of(partition));
			List<String> values = new ArrayList<>();
			await().atMost(WAIT).until(() -> {
				consumer.poll(Duration.ofMillis(200)).forEach((record) -> values.add(record.value()));
				return values.size() >= expected;
			});
			consumer.poll(Duration.ofMillis(500)).forEach((record) -> values.add(record.value()));
			return values;
		}
	}

	long committedOffset() {
		try (Admin admin = admin()) {
			return admin.listConsumerGroupOffsets(this.group)
				.partitionsToOffsetAndMetadata()
				.get()
				.get(new TopicPartition(this.input, 0))
				.offset();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private List<ConsumerRecord<String, String>> pollUntil(KafkaConsumer<String, String> consumer, int count) {
		List<ConsumerRecord<String, String>> records = new ArrayList<>();
		await().atMost(WAIT).until(() -> {
			consumer.poll(Duration.ofMillis(200)).forEach(records::add);
			return records.size() >= count;
		});
		return records;
	}

	private KafkaConsumer<String, String> consumer(String groupId, String isolation) {
		Properties props = new Properties();
		props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers);
		props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
		props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		if (groupId != null) {
			props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
		}
		return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
	}

	Admin admin() {
		Properties props = new Properties();
		props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers);
		return Admin.create(props);
	}

}
