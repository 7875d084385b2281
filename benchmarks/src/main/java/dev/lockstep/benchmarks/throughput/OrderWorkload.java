package dev.lockstep.benchmarks.throughput;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;

import dev.lockstep.benchmarks.Order;
import dev.lockstep.registry.kafka.RawAvroDeserializer;
import dev.lockstep.registry.kafka.RawAvroSerializer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The benchmark's orders on the broker: topics, seeding (a tombstone every 50th, statuses
 * in mixed case, optionally a send-time header for latency), and the check after every
 * run that the read_committed output holds each input exactly once.
 */
final class OrderWorkload implements AutoCloseable {

	/** Header carrying the input's send time, microseconds since the epoch. */
	static final String SENT_AT = "sent-at-us";

	/** The W3C trace context header. */
	static final String TRACEPARENT = "traceparent";

	/** Header carrying the order id when the key is a customer's (a keyed workload). */
	static final String ORDER_ID = "order-id";

	private static final Pattern STATUS_NORMALIZED = Pattern.compile("PAID|REFUNDED");

	private static final String[] STATUSES = { "paid", "PAID", "Paid", "refunded", "Refunded", "REFUNDED" };

	private final String bootstrapServers;

	private final Admin admin;

	private final RawAvroDeserializer<Order> orders = new RawAvroDeserializer<>(Order.class);

	OrderWorkload(String bootstrapServers) {
		this.bootstrapServers = bootstrapServers;
		this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
	}

	static boolean isTombstone(long id) {
		return id % 50 == 0;
	}

	static long tombstones(long records) {
		return records / 50;
	}

	void createTopic(String topic, int partitions) throws Exception {
		this.admin.createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty()))).all().get();
	}

	void deleteTopic(String topic) throws Exception {
		this.admin.deleteTopics(List.of(topic)).all().get();
	}

	/** Whether the group has members with partitions assigned, all done rebalancing. */
	boolean groupStable(String group) throws Exception {
		try {
			ConsumerGroupDescription description = this.admin.describeConsumerGroups(List.of(group))
				.all()
				.get()
				.get(group);
			return description.groupState() == GroupState.STABLE && !description.members().isEmpty();
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof GroupIdNotFoundException) {
				return false;
			}
			throw ex;
		}
	}

	KafkaProducer<byte[], Order> producer(int lingerMs) {
		return new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers, ProducerConfig.LINGER_MS_CONFIG,
						lingerMs, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024),
				new ByteArraySerializer(), new RawAvroSerializer<>(Order.class));
	}

	/** Seed orders 1..records into a new topic, each keyed by its own id. */
	void seed(String topic, int partitions, long records) throws Exception {
		seed(topic, partitions, records, 0, TraceInput.NONE);
	}

	/**
	 * Seed orders 1..records into a new topic.
	 * @param keys the customers whose orders they are, keyed {@code customer-<id % keys>}
	 * with the order id in a header; 0 keys each order by its own id
	 * @param trace the trace context each order carries
	 */
	void seed(String topic, int partitions, long records, int keys, TraceInput trace) throws Exception {
		createTopic(topic, partitions);
		try (KafkaProducer<byte[], Order> producer = producer(20)) {
			for (long id = 1; id <= records; id++) {
				ProducerRecord<byte[], Order> order = order(topic, id, false, trace);
				if (keys > 0) {
					order = new ProducerRecord<>(topic, null, ("customer-" + (id % keys)).getBytes(StandardCharsets.UTF_8),
							order.value(), order.headers());
					order.headers().add(ORDER_ID, ByteBuffer.allocate(8).putLong(id).array());
				}
				producer.send(order);
			}
			producer.flush();
		}
	}

	static ProducerRecord<byte[], Order> order(String topic, long id, boolean stamped, TraceInput trace) {
		ProducerRecord<byte[], Order> record = new ProducerRecord<>(topic, null, key(id),
				isTombstone(id) ? null : new Order(id, STATUSES[(int) (id % STATUSES.length)], id * 7 % 100_000));
		if (trace != TraceInput.NONE) {
			record.headers().add(TRACEPARENT, trace.traceparent(id));
		}
		if (stamped) {
			record.headers().add(SENT_AT, ByteBuffer.allocate(8).putLong(nowMicros()).array());
		}
		return record;
	}

	static long nowMicros() {
		return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
	}

	static long sentAtMicros(ConsumerRecord<byte[], byte[]> record) {
		Header header = record.headers().lastHeader(SENT_AT);
		return ByteBuffer.wrap(header.value()).getLong();
	}

	private static byte[] key(long id) {
		return ("order-" + id).getBytes(StandardCharsets.UTF_8);
	}

	private static long id(byte[] key) {
		return Long.parseLong(new String(key, StandardCharsets.UTF_8).substring("order-".length()));
	}

	KafkaConsumer<byte[], byte[]> readCommittedConsumer() {
		return new KafkaConsumer<>(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers,
						ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
						ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000),
				new ByteArrayDeserializer(), new ByteArrayDeserializer());
	}

	static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, String topic) {
		return consumer.partitionsFor(topic).stream().map((info) -> new TopicPartition(topic, info.partition())).toList();
	}

	/**
	 * Check that the committed output holds orders 1..records exactly once, tombstones kept
	 * and statuses normalized, and, for a keyed workload, each customer's orders in input
	 * order.
	 * @throws IllegalStateException if it does not
	 */
	void verify(String topic, long records) {
		BitSet seen = new BitSet();
		Map<String, Long> lastOfKey = new HashMap<>();
		long out = 0;
		long duplicates = 0;
		long tombstones = 0;
		long outOfOrder = 0;
		try (KafkaConsumer<byte[], byte[]> consumer = readCommittedConsumer()) {
			List<TopicPartition> partitions = partitions(consumer, topic);
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
			long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
			while (partitions.stream().anyMatch((partition) -> consumer.position(partition) < ends.get(partition))) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("Could not read " + topic + " to its end");
				}
				for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
					Header orderId = record.headers().lastHeader(ORDER_ID);
					long id = (orderId != null) ? ByteBuffer.wrap(orderId.value()).getLong() : id(record.key());
					if (orderId != null) {
						Long previous = lastOfKey.put(new String(record.key(), StandardCharsets.UTF_8), id);
						outOfOrder += (previous != null && previous > id) ? 1 : 0;
					}
					out++;
					if (seen.get((int) id)) {
						duplicates++;
					}
					seen.set((int) id);
					if ((record.value() == null) != isTombstone(id)) {
						throw new IllegalStateException("Order " + id + " in " + topic + " lost or gained its value");
					}
					if (record.value() != null) {
						Order order = this.orders.deserialize(topic, record.value());
						if (order.getId() != id || !STATUS_NORMALIZED.matcher(order.getStatus()).matches()) {
							throw new IllegalStateException("Order " + id + " in " + topic + " not normalized: " + order);
						}
					}
					tombstones += (record.value() == null) ? 1 : 0;
				}
			}
		}
		long missing = records - seen.cardinality();
		if (out != records || duplicates != 0 || missing != 0 || tombstones != tombstones(records)
				|| outOfOrder != 0) {
			throw new IllegalStateException(String.format("Output %s not exact: out=%d duplicates=%d missing=%d "
					+ "tombstones=%d out-of-key-order=%d (expected %d records, %d tombstones)", topic, out, duplicates,
					missing, tombstones, outOfOrder, records, tombstones(records)));
		}
	}

	@Override
	public void close() {
		this.admin.close();
	}

}
