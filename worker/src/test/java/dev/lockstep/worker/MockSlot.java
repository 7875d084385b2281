package dev.lockstep.worker;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import dev.lockstep.worker.WorkerSettings.Bounds;
import dev.lockstep.worker.WorkerSettings.Codecs;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy;
import dev.lockstep.worker.WorkerSettings.Recovery;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import dev.lockstep.worker.slot.SlotClients;
import dev.lockstep.worker.slot.SlotWork;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * One worker slot on Kafka's mock clients: a consumer that reads a partition like a log
 * (a seek back replays), and a new mock producer each time the slot creates one, so that
 * tests drive every failure category in milliseconds.
 */
public final class MockSlot implements AutoCloseable {

	static final String INPUT = "in";

	static final String OUTPUT = "out";

	static final String QUARANTINE = "quarantine";

	static final TopicPartition PARTITION = new TopicPartition(INPUT, 0);

	final LogConsumer consumer = new LogConsumer();

	final List<MockProducer<byte[], byte[]>> producers = new CopyOnWriteArrayList<>();

	// Failures of initTransactions, one for each producer the slot creates, until they
	// run out: a producer keeps failing until the test clears its failure.
	final Queue<RuntimeException> initFailures = new ConcurrentLinkedQueue<>();

	// Consumers the slot gets before the log consumer, one per consumer it creates.
	final Queue<Consumer<byte[], byte[]>> earlierConsumers = new ConcurrentLinkedQueue<>();

	private Worker worker;

	MockSlot(int records) {
		this(records, records);
	}

	/**
	 * A slot on a partition whose records have {@code keys} distinct keys, in turn.
	 * @param records the records in the partition
	 * @param keys the distinct keys
	 */
	MockSlot(int records, int keys) {
		for (int i = 0; i < records; i++) {
			this.consumer.log.add(new ConsumerRecord<>(INPUT, 0, i, bytes("k" + (i % keys)), bytes("v" + i)));
		}
		this.consumer.updateBeginningOffsets(Map.of(PARTITION, 0L));
		this.consumer.updateEndOffsets(Map.of(PARTITION, (long) records));
		this.consumer.schedulePollTask(() -> this.consumer.rebalance(List.of(PARTITION)));
	}

	public static WorkerSettings settings(InvalidInputPolicy.Mode mode, TransactionSizing sizing, Codecs codecs) {
		return settings(mode, sizing, codecs, Bounds.NONE);
	}

	static WorkerSettings settings(InvalidInputPolicy.Mode mode, TransactionSizing sizing, Codecs codecs,
			Bounds bounds) {
		return WorkerSettings.builder("mock")
			.sourceTopics(INPUT)
			.destination(OUTPUT)
			.groupId("group")
			.transactionalId("tx")
			.instance(InstanceIdentity.configured("i", "test"))
			.codecs(codecs)
			.pollTimeout(Duration.ofMillis(10))
			.transaction(sizing)
			.invalidInput(new InvalidInputPolicy(mode, QUARANTINE))
			.recovery(new Recovery(Duration.ofMillis(1), Duration.ofMillis(20), 3))
			.bounds(bounds)
			.shutdownTimeout(Duration.ofSeconds(5))
			.build();
	}

	public static Codecs strings() {
		return new Codecs(new StringDeserializer(), new StringDeserializer(), new StringSerializer(),
				new StringSerializer());
	}

	Worker start(WorkerSettings settings, RecordProcessor<?, ?> processor) {
		return start(settings, processor, RecoveryPolicy.AS_CLASSIFIED);
	}

	Worker start(WorkerSettings settings, RecordProcessor<?, ?> processor, RecoveryPolicy policy) {
		return start(settings, (slotSettings) -> SlotWork.of(slotSettings, processor), policy);
	}

	Worker start(WorkerSettings settings, AsyncRecordProcessor<?, ?> processor) {
		return start(settings, (slotSettings) -> SlotWork.of(slotSettings, processor), RecoveryPolicy.AS_CLASSIFIED);
	}

	private Worker start(WorkerSettings settings, java.util.function.Function<WorkerSettings, SlotWork> work,
			RecoveryPolicy policy) {
		this.worker = new Worker(settings, work, policy, WorkerListener.NONE, (id) -> new SlotClients() {

			@Override
			public Consumer<byte[], byte[]> newConsumer() {
				Consumer<byte[], byte[]> earlier = MockSlot.this.earlierConsumers.poll();
				return (earlier != null) ? earlier : MockSlot.this.consumer;
			}

			@Override
			public org.apache.kafka.clients.producer.Producer<byte[], byte[]> newProducer() {
				MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(),
						new ByteArraySerializer());
				producer.initTransactionException = MockSlot.this.initFailures.poll();
				MockSlot.this.producers.add(producer);
				return producer;
			}

		});
		this.worker.start();
		return this.worker;
	}

	MockProducer<byte[], byte[]> producer() {
		return this.producers.get(this.producers.size() - 1);
	}

	/** Committed output values of a topic, over every producer the slot had. */
	List<String> committed(String topic) {
		List<String> values = new ArrayList<>();
		for (MockProducer<byte[], byte[]> producer : this.producers) {
			for (ProducerRecord<byte[], byte[]> record : producer.history()) {
				if (record.topic().equals(topic)) {
					values.add(new String(record.value(), StandardCharsets.UTF_8));
				}
			}
		}
		return values;
	}

	/** The input offsets committed with the transactions, over every producer. */
	long committedOffset() {
		return this.producers.stream()
			.flatMap((producer) -> producer.consumerGroupOffsetsHistory().stream())
			.flatMap((byGroup) -> byGroup.values().stream())
			.map((offsets) -> offsets.get(PARTITION))
			.filter((offset) -> offset != null)
			.mapToLong((offset) -> offset.offset())
			.max()
			.orElse(-1);
	}

	List<String> expected(int records) {
		return java.util.stream.IntStream.range(0, records).mapToObj((i) -> "V" + i).collect(Collectors.toList());
	}

	SlotState slot() {
		return this.worker.state().slots().get(0);
	}

	static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	@Override
	public void close() {
		if (this.worker != null) {
			this.worker.stop();
		}
	}

	/**
	 * A mock consumer that keeps its partition's records like a log: every poll offers
	 * them all again, and the consumer returns those at or after its position.
	 */
	static class LogConsumer extends MockConsumer<byte[], byte[]> {

		final List<ConsumerRecord<byte[], byte[]>> log = new CopyOnWriteArrayList<>();

		volatile boolean failPositionOnce;

		LogConsumer() {
			super("earliest");
		}

		@Override
		public synchronized ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
			if (assignment().contains(PARTITION)) {
				this.log.forEach(this::addRecord);
			}
			return super.poll(timeout);
		}

		@Override
		public synchronized long position(TopicPartition partition, Duration timeout) {
			return position(partition);
		}

		@Override
		public synchronized long position(TopicPartition partition) {
			if (this.failPositionOnce) {
				this.failPositionOnce = false;
				throw new org.apache.kafka.common.errors.TimeoutException("position of " + partition);
			}
			return super.position(partition);
		}

	}

}
