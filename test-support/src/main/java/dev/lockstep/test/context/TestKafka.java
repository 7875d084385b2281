package dev.lockstep.test.context;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.lockstep.test.kafka.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The broker of a {@link LockstepKafkaBroker}, and what a test does with it: create
 * topics, send input records, and read output as a downstream {@code read_committed}
 * consumer sees it. Keys and values are bytes, so any codec's encoding can be checked.
 */
public final class TestKafka implements AutoCloseable {

	private static final Duration LEADERS_TIMEOUT = Duration.ofSeconds(30);

	private final KafkaBroker broker;

	/**
	 * Wrap a broker a test started itself ({@link LockstepKafkaBroker} does this for a
	 * Spring test's context).
	 * @param broker the broker; {@link #close()} stops it
	 */
	public TestKafka(KafkaBroker broker) {
		this.broker = broker;
	}

	/**
	 * Return the broker's {@code bootstrap.servers}.
	 * @return the bootstrap servers
	 */
	public String bootstrapServers() {
		return this.broker.bootstrapServers();
	}

	/**
	 * Create topics that do not exist yet (one replica each), returning once the brokers
	 * lead every partition of them.
	 * @param topics the topic names
	 * @param partitions the partitions of each
	 */
	public void createTopics(Collection<String> topics, int partitions) {
		if (topics.isEmpty()) {
			return;
		}
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
			for (String topic : topics) {
				try {
					admin.createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty())))
						.all()
						.get();
				}
				catch (ExecutionException ex) {
					if (!(ex.getCause() instanceof TopicExistsException)) {
						throw new IllegalStateException("Could not create topic " + topic, ex.getCause());
					}
				}
			}
			// The controller has them, the brokers may not yet: a producer seeding a topic
			// just created saw its first batch refused (NOT_LEADER_OR_FOLLOWER), later ones
			// taken, and the first retried out of order until its delivery timeout.
			long deadline = System.nanoTime() + LEADERS_TIMEOUT.toNanos();
			while (!led(admin, topics)) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("Topics " + topics + " without a leader after " + LEADERS_TIMEOUT);
				}
				Thread.sleep(20);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static boolean led(Admin admin, Collection<String> topics) throws InterruptedException {
		try {
			return admin.describeTopics(topics)
				.allTopicNames()
				.get(LEADERS_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
				.values()
				.stream()
				.allMatch((topic) -> topic.partitions().stream().allMatch((partition) -> partition.leader() != null));
		}
		catch (ExecutionException | TimeoutException ex) {
			// Not known to the broker answering yet.
			return false;
		}
	}

	/**
	 * Send records and wait until every one is acknowledged.
	 * @param records the records
	 * @throws IllegalStateException when a send fails
	 */
	public void send(List<ProducerRecord<byte[], byte[]>> records) {
		Properties props = new Properties();
		props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			List<Future<RecordMetadata>> sent = new ArrayList<>();
			records.forEach((record) -> sent.add(producer.send(record)));
			for (Future<RecordMetadata> result : sent) {
				result.get();
			}
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException("Sending test records failed", ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Send one record and wait until it is acknowledged.
	 * @param topic the topic
	 * @param key the key, or {@code null}
	 * @param value the value, or {@code null} for a tombstone
	 */
	public void send(String topic, byte[] key, byte[] value) {
		send(List.of(new ProducerRecord<>(topic, key, value)));
	}

	/**
	 * Read a topic from its beginning as a {@code read_committed} consumer, until it has
	 * returned at least {@code count} records and then everything committed up to the end
	 * of the topic's log at that moment: a duplicate already committed is returned too,
	 * for the test to see. Records earlier tests left in the topic count: give tests that
	 * share a context their own topics.
	 * @param topic the topic
	 * @param count how many records to wait for
	 * @param timeout the longest wait: generous, a loaded machine is slow
	 * @return the records, in order within each partition
	 * @throws AssertionError when fewer records are committed within the timeout
	 */
	public List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic, int count, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		try (KafkaConsumer<byte[], byte[]> consumer = consumer("read_committed");
				KafkaConsumer<byte[], byte[]> uncommitted = consumer("read_uncommitted")) {
			List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout)
				.stream()
				.map((info) -> new TopicPartition(topic, info.partition()))
				.toList();
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
			Supplier<String> failure = () -> "Read " + records.size() + " committed records of " + count + " from "
					+ topic + " within " + timeout;
			pollUntil(consumer, records, () -> records.size() >= count, deadline, failure);
			// Then the rest of the log as it ends now, open transactions waited out.
			Map<TopicPartition, Long> ends = uncommitted.endOffsets(partitions);
			pollUntil(consumer, records,
					() -> partitions.stream().allMatch((partition) -> consumer.position(partition) >= ends.get(partition)),
					deadline, () -> failure.get() + " up to the log end offsets " + ends);
			return records;
		}
	}

	private static void pollUntil(KafkaConsumer<byte[], byte[]> consumer, List<ConsumerRecord<byte[], byte[]>> records,
			BooleanSupplier done, long deadline, Supplier<String> failure) {
		while (!done.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError(failure.get());
			}
			consumer.poll(Duration.ofMillis(100)).forEach(records::add);
		}
	}

	private KafkaConsumer<byte[], byte[]> consumer(String isolationLevel) {
		Properties props = new Properties();
		props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
		props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel);
		return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
	}

	/**
	 * Stop the broker and delete its data (an external cluster is left alone).
	 */
	@Override
	public void close() {
		this.broker.close();
	}

	@Override
	public String toString() {
		return this.broker.description();
	}

}
