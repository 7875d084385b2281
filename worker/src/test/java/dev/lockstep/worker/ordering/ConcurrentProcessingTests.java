package dev.lockstep.worker.ordering;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import dev.lockstep.worker.AsyncRecordProcessor;
import dev.lockstep.worker.MockSlot;
import dev.lockstep.worker.RecordProcessor;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.Ordering;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import dev.lockstep.worker.slot.ProcessedRecord;
import dev.lockstep.worker.slot.SlotId;
import dev.lockstep.worker.slot.SlotWork;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The offset-completion logic of key and unordered processing, with work that completes
 * exactly when a test says: out-of-order completion, offset gaps, key chains, rewinds and
 * revokes, and the max-in-flight places.
 */
class ConcurrentProcessingTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final TopicPartition P0 = new TopicPartition("in", 0);

	private static final TopicPartition P1 = new TopicPartition("in", 1);

	/** The processor forms: each test runs with both. */
	enum Processor {

		BLOCKING, ASYNC

	}

	private final Map<String, CompletableFuture<Void>> gates = new ConcurrentHashMap<>();

	private final List<String> started = new CopyOnWriteArrayList<>();

	private ConcurrentProcessing processing;

	@AfterEach
	void close() {
		this.gates.values().forEach((gate) -> gate.complete(null));
		if (this.processing != null) {
			this.processing.close();
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(Processor.class)
	void recordsDoneOutOfOrderAreTakenBackInOffsetOrder(Processor processor) {
		this.processing = processing(processor, Ordering.NONE, 10);
		add(record(P0, 0, "a"), record(P0, 1, "b"), record(P0, 2, "c"), record(P0, 3, "d"), record(P0, 4, "e"));
		finish("in-0@3", "in-0@1", "in-0@4");
		assertThat(takeAll()).isEmpty();
		finish("in-0@0");
		assertThat(takeAll()).containsExactly(0L, 1L);
		finish("in-0@2");
		assertThat(takeAll()).containsExactly(2L, 3L, 4L);
		assertThat(this.processing.inFlight()).isZero();
		assertThat(this.processing.hasPending()).isFalse();
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(Processor.class)
	void offsetGapsDoNotHoldBackTakingBack(Processor processor) {
		this.processing = processing(processor, Ordering.NONE, 10);
		// Gaps as a compacted topic or transaction markers leave them.
		add(record(P0, 0, "a"), record(P0, 5, "b"), record(P0, 9, "c"));
		finish("in-0@9", "in-0@5", "in-0@0");
		assertThat(takeAll()).containsExactly(0L, 5L, 9L);
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(Processor.class)
	void aSlowRecordHoldsBackOnlyItsOwnPartition(Processor processor) {
		this.processing = processing(processor, Ordering.NONE, 10);
		add(record(P0, 0, "a"), record(P1, 0, "b"), record(P1, 1, "c"));
		assertThat(this.processing.hasPending(Set.of(P1))).isTrue();
		finish("in-1@0", "in-1@1");
		assertThat(takeAll()).containsExactly(0L, 1L);
		assertThat(this.processing.hasPending()).isTrue();
		// A revocation of P1 waits for nothing more; one of P0 waits for its record.
		assertThat(this.processing.hasPending(Set.of(P1))).isFalse();
		assertThat(this.processing.hasPending(Set.of(P0))).isTrue();
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(Processor.class)
	void oneKeyRunsOneRecordAtATimeInOffsetOrder(Processor processor) {
		this.processing = processing(processor, Ordering.KEY, 10);
		add(record(P0, 0, "a"), record(P0, 1, "a"), record(P0, 2, "b"), record(P0, 3, "a"));
		await().atMost(WAIT).until(() -> this.started.size() == 2);
		assertThat(this.started).containsExactlyInAnyOrder("in-0@0", "in-0@2");
		finish("in-0@0");
		await().atMost(WAIT).until(() -> this.started.contains("in-0@1"));
		assertThat(this.started).doesNotContain("in-0@3");
		finish("in-0@1");
		await().atMost(WAIT).until(() -> this.started.contains("in-0@3"));
		finish("in-0@3", "in-0@2");
		assertThat(takeAll()).containsExactly(0L, 1L, 2L, 3L);
		assertThat(this.started).containsSubsequence("in-0@0", "in-0@1", "in-0@3");
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(Processor.class)
	void recordsWithoutAKeyAreInNoKeyOrder(Processor processor) {
		this.processing = processing(processor, Ordering.KEY, 10);
		add(record(P0, 0, null), record(P0, 1, null), record(P0, 2, null));
		await().atMost(WAIT).until(() -> this.started.size() == 3);
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(Processor.class)
	void theSameKeyInAnotherPartitionIsAnotherKey(Processor processor) {
		this.processing = processing(processor, Ordering.KEY, 10);
		add(record(P0, 0, "a"), record(P1, 0, "a"));
		await().atMost(WAIT).until(() -> this.started.size() == 2);
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(Processor.class)
	void atMostMaxInFlightRecordsRunAtOnceAndPollingStopsAtTwiceThat(Processor processor) {
		this.processing = processing(processor, Ordering.NONE, 2);
		add(record(P0, 0, "a"), record(P0, 1, "b"), record(P0, 2, "c"));
		await().atMost(WAIT).until(() -> this.started.size() == 2);
		assertThat(this.processing.acceptsMore()).isTrue();
		add(record(P0, 3, "d"));
		assertThat(this.processing.acceptsMore()).isFalse();
		assertThat(this.processing.inFlight()).isEqualTo(4);
		finish("in-0@1");
		// A thread is free: the next queued record starts, though offset 0 still runs.
		await().atMost(WAIT).until(() -> this.started.size() == 3);
		assertThat(takeAll()).isEmpty();
		finish("in-0@0", "in-0@2");
		assertThat(takeAll()).containsExactly(0L, 1L, 2L);
		assertThat(this.processing.acceptsMore()).isTrue();
		await().atMost(WAIT).until(() -> this.started.size() == 4);
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(Processor.class)
	void aRewindDropsEverythingAndQueuedRecordsNeverStart(Processor processor) {
		this.processing = processing(processor, Ordering.NONE, 2);
		add(record(P0, 0, "a"), record(P0, 1, "b"), record(P0, 2, "c"));
		await().atMost(WAIT).until(() -> this.started.size() == 2);
		this.processing.discard();
		assertThat(this.processing.hasPending()).isFalse();
		assertThat(this.processing.inFlight()).isZero();
		// Offsets 0 and 1 finish on their threads; offset 2, queued, is dropped unstarted.
		finish("in-0@0", "in-0@1");
		assertThat(takeAll()).isEmpty();
		// Replayed after the rewind: taken back as if new.
		add(record(P0, 0, "a2"));
		finish("in-0@0");
		assertThat(takeAll()).containsExactly(0L);
		assertThat(this.started).containsExactlyInAnyOrder("in-0@0", "in-0@1", "in-0@0");
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(Processor.class)
	void staleRecordsWaitingBehindTheirKeyNeverStart(Processor processor) {
		this.processing = processing(processor, Ordering.KEY, 10);
		add(record(P0, 0, "a"), record(P0, 1, "a"), record(P0, 2, "a"));
		await().atMost(WAIT).until(() -> this.started.size() == 1);
		this.processing.discard();
		// The chain runs on: 1 and 2 are skipped, and the key is free again.
		finish("in-0@0");
		add(record(P0, 0, "a"));
		await().atMost(WAIT).until(() -> this.started.size() == 2);
		assertThat(this.started).containsExactly("in-0@0", "in-0@0");
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(Processor.class)
	void aRevokeDropsOnlyTheRevokedPartitions(Processor processor) {
		this.processing = processing(processor, Ordering.NONE, 10);
		add(record(P0, 0, "a"), record(P1, 0, "b"), record(P1, 1, "c"));
		await().atMost(WAIT).until(() -> this.started.size() == 3);
		this.processing.discard(Set.of(P1));
		finish("in-1@0", "in-1@1", "in-0@0");
		assertThat(takeAll()).containsExactly(0L);
		assertThat(this.processing.inFlight()).isZero();
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(Processor.class)
	void aFailureIsTakenBackInItsPlaceWithTheRecord(Processor processor) {
		this.processing = processing(processor, Ordering.NONE, 10);
		add(record(P0, 0, "fail"), record(P0, 1, "b"));
		finish("in-0@1", "in-0@0");
		ProcessedRecord first = take();
		assertThat(first.raw().offset()).isZero();
		assertThat(first.failure()).hasMessage("processing in-0@0 failed");
		assertThat(take().failure()).isNull();
	}

	@Test
	void aProcessorCheaperThanAHandOffRunsOnTheSlotThreadUntilARecordIsSlow() {
		String slot = Thread.currentThread().getName();
		Map<Long, String> threads = new ConcurrentHashMap<>();
		AtomicLong slowOffset = new AtomicLong(-1);
		// A processor as cheap as it gets, but for one slow call (a remote service that
		// answers after 20 ms): the 10th record of the first poll that runs on this thread.
		WorkerSettings settings = MockSlot
			.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofSeconds(1)), MockSlot.strings())
			.toBuilder().ordering(Ordering.KEY).maxInFlight(10).build();
		this.processing = new ConcurrentProcessing(SlotId.of(settings, 0), settings,
				SlotWork.of(settings, (RecordProcessor<String, String>) (record, output) -> {
					threads.put(record.offset(), Thread.currentThread().getName());
					if (record.offset() % 100 == 10 && slot.equals(Thread.currentThread().getName())
							&& slowOffset.compareAndSet(-1, record.offset())) {
						CompletableFuture.runAsync(() -> {
						}, CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS)).join();
					}
				}), WorkerListener.NONE, TimeUnit.MILLISECONDS.toNanos(1));
		List<Long> taken = new ArrayList<>();
		long offset = 0;
		// Assumed slow, the first records go to the pool; once the processor is measured
		// cheap and the pool is idle, a poll runs here.
		while (slowOffset.get() < 0) {
			assertThat(offset).as("a poll processed on the slot thread within 100 polls").isLessThan(10_000);
			long first = offset;
			offset = addPoll(first, 100);
			taken.addAll(takeAllAwaiting(offset - first));
		}
		assertThat(threads.get(slowOffset.get() - 1)).isEqualTo(slot);
		for (long later = slowOffset.get() + 1; later < offset; later++) {
			assertThat(threads.get(later)).as("offset %d, after the slow record", later).startsWith("lockstep-");
		}
		assertThat(taken).as("every record once, in offset order")
			.containsExactlyElementsOf(LongStream.range(0, offset).boxed().toList());
		assertThat(this.processing.hasPending()).isFalse();
	}

	/** Add a poll of records on P0 from the given offset, keys over 7 values; return the next offset. */
	private long addPoll(long from, int count) {
		List<ConsumerRecord<byte[], byte[]>> poll = new ArrayList<>();
		for (long offset = from; offset < from + count; offset++) {
			poll.add(record(P0, offset, "k" + (offset % 7)));
		}
		add(poll.toArray(ConsumerRecord[]::new));
		return from + count;
	}

	private List<Long> takeAllAwaiting(long count) {
		List<Long> offsets = new ArrayList<>();
		// On this thread: it is the slot thread here.
		await().pollInSameThread().atMost(WAIT).until(() -> {
			offsets.addAll(takeAll());
			if (offsets.size() < count) {
				this.processing.awaitCompletion(Duration.ofMillis(10));
			}
			return offsets.size() == count;
		});
		return offsets;
	}

	private ConcurrentProcessing processing(Processor processor, Ordering ordering, int maxInFlight) {
		WorkerSettings settings = MockSlot
			.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofSeconds(1)), MockSlot.strings())
			.toBuilder().ordering(ordering).maxInFlight(maxInFlight).build();
		SlotWork work = switch (processor) {
			case BLOCKING -> SlotWork.of(settings, (RecordProcessor<String, String>) (record, output) -> {
				started(record).get(1, TimeUnit.MINUTES);
				failIfAsked(record);
			});
			case ASYNC -> SlotWork.of(settings, (AsyncRecordProcessor<String, String>) (record, output) -> started(record)
				.thenRun(() -> failIfAsked(record)));
		};
		// Assumed slow, as they are: each waits until the test lets it finish.
		return new ConcurrentProcessing(SlotId.of(settings, 0), settings, work, WorkerListener.NONE,
				TimeUnit.MILLISECONDS.toNanos(1));
	}

	/** A record's processing started: it is done when the test finishes it. */
	private CompletableFuture<Void> started(ConsumerRecord<String, String> record) {
		String name = record.topic() + "-" + record.partition() + "@" + record.offset();
		this.started.add(name);
		return gate(name);
	}

	private static void failIfAsked(ConsumerRecord<String, String> record) {
		if ("fail".equals(record.key())) {
			throw new IllegalStateException("processing " + record.topic() + "-" + record.partition() + "@"
					+ record.offset() + " failed");
		}
	}

	private CompletableFuture<Void> gate(String name) {
		return this.gates.computeIfAbsent(name, (key) -> new CompletableFuture<>());
	}

	/** Let records finish, and wait until they are done. */
	private void finish(String... names) {
		for (String name : names) {
			await().atMost(WAIT).until(() -> this.started.contains(name));
			gate(name).complete(null);
		}
		int[] done = { 0 };
		await().atMost(WAIT).until(() -> (done[0] += this.processing.awaitCompletion(Duration.ofMillis(10))) >= names.length);
	}

	private List<Long> takeAll() {
		List<Long> offsets = new ArrayList<>();
		ProcessedRecord record;
		while ((record = this.processing.takeDone()) != null) {
			offsets.add(record.raw().offset());
		}
		return offsets;
	}

	private ProcessedRecord take() {
		ProcessedRecord record = this.processing.takeDone();
		assertThat(record).isNotNull();
		return record;
	}

	private void add(ConsumerRecord<byte[], byte[]>... records) {
		Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> byPartition = new java.util.LinkedHashMap<>();
		for (ConsumerRecord<byte[], byte[]> record : records) {
			byPartition.computeIfAbsent(new TopicPartition(record.topic(), record.partition()), (p) -> new ArrayList<>())
				.add(record);
		}
		this.processing.add(new ConsumerRecords<>(byPartition, Map.of()));
	}

	private static ConsumerRecord<byte[], byte[]> record(TopicPartition partition, long offset, String key) {
		return new ConsumerRecord<>(partition.topic(), partition.partition(), offset,
				(key != null) ? key.getBytes() : null, ("v" + offset).getBytes());
	}

}
