package dev.lockstep.worker;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.worker.WorkerSettings.Codecs;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.Ordering;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import dev.lockstep.worker.WorkerSlotTests.BadAt;
import dev.lockstep.worker.WorkerSlotTests.BadBytesException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A slot under key and unordered processing on Kafka's mock clients: outputs in input
 * order and exactly once whatever order records complete in, through failures, invalid
 * input, one-shot budgets and a graceful stop.
 */
class ConcurrentWorkerSlotTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private MockSlot slot;

	@AfterEach
	void stop() {
		if (this.slot != null) {
			this.slot.close();
		}
	}

	@Test
	void recordsCompletingInAnyOrderAreCommittedInInputOrder() {
		this.slot = new MockSlot(300);
		AtomicInteger running = new AtomicInteger();
		AtomicInteger mostRunning = new AtomicInteger();
		Worker worker = this.slot.start(settings(Ordering.NONE, 32), RecordProcessor.of((String value) -> {
			mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
			Thread.sleep(ThreadLocalRandom.current().nextInt(3));
			running.decrementAndGet();
			return upper(value);
		}));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 300);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(300));
		assertThat(this.slot.committedOffset()).isEqualTo(300);
		assertThat(mostRunning.get()).isGreaterThan(1);
	}

	@Test
	void anAsynchronousProcessorUnderPartitionOrderingIsWaitedForRecordByRecord() {
		this.slot = new MockSlot(200);
		AtomicInteger running = new AtomicInteger();
		AtomicInteger mostRunning = new AtomicInteger();
		Worker worker = this.slot.start(settings(Ordering.PARTITION, 1),
				AsyncRecordProcessor.of((String value) -> {
					mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
					return CompletableFuture.supplyAsync(() -> {
						running.decrementAndGet();
						return upper(value);
					}, CompletableFuture.delayedExecutor(ThreadLocalRandom.current().nextInt(2), TimeUnit.MILLISECONDS));
				}));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 200);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(200));
		assertThat(mostRunning.get()).isOne();
	}

	@Test
	void recordsOfOneKeyAreNeverProcessedAtTheSameTimeAndKeepTheirOrder() {
		this.slot = new MockSlot(400, 7);
		Map<String, AtomicBoolean> busy = new ConcurrentHashMap<>();
		Map<String, Integer> lastSeen = new ConcurrentHashMap<>();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger outOfOrder = new AtomicInteger();
		Worker worker = this.slot.start(settings(Ordering.KEY, 64), (RecordProcessor<String, String>) (record, output) -> {
			if (!busy.computeIfAbsent(record.key(), (key) -> new AtomicBoolean()).compareAndSet(false, true)) {
				overlaps.incrementAndGet();
			}
			Integer previous = lastSeen.put(record.key(), (int) record.offset());
			if (previous != null && previous >= record.offset()) {
				outOfOrder.incrementAndGet();
			}
			Thread.sleep(ThreadLocalRandom.current().nextInt(3));
			busy.get(record.key()).set(false);
			output.toDestination(record.key(), upper(record.value()), null);
		});
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 400);
		assertThat(overlaps).hasValue(0);
		assertThat(outOfOrder).hasValue(0);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(400));
	}

	@Test
	void aFailureWithRecordsInFlightAbortsAndReplaysWithExactOutput() {
		this.slot = new MockSlot(200);
		AtomicInteger calls = new AtomicInteger();
		Worker worker = this.slot.start(settings(Ordering.NONE, 16), RecordProcessor.of((String value) -> {
			Thread.sleep(ThreadLocalRandom.current().nextInt(2));
			int call = calls.incrementAndGet();
			if (call == 57 || call == 130) {
				throw new IllegalStateException("pricing service down");
			}
			return upper(value);
		}));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 200);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(200));
		assertThat(this.slot.slot().recentErrors()).anyMatch((error) -> error.contains("ABORTABLE"));
	}

	@Test
	void invalidInputUnderBlockHoldsTheSlotAtTheRecordAfterCommittingEverythingBefore() {
		this.slot = new MockSlot(100);
		Worker worker = this.slot.start(settings(Mode.BLOCK, invalidAt(50), Ordering.NONE, 16),
				RecordProcessor.of(ConcurrentWorkerSlotTests::upper));
		await().atMost(WAIT).until(() -> worker.state().status() == WorkerStatus.BLOCKED);
		assertThat(this.slot.slot().blockedAt().offset()).isEqualTo(50);
		await().atMost(WAIT).until(() -> this.slot.committedOffset() == 50);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(50));
		assertThat(worker.state().committedRecords()).isEqualTo(50);
	}

	@Test
	void invalidInputUnderQuarantineGoesToTheQuarantineTopicInItsPlace() {
		this.slot = new MockSlot(100);
		Worker worker = this.slot.start(settings(Mode.QUARANTINE, invalidAt(50), Ordering.KEY, 16),
				RecordProcessor.of(ConcurrentWorkerSlotTests::upper));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 100);
		assertThat(this.slot.committed(MockSlot.QUARANTINE)).containsExactly("v50");
		List<String> expected = new java.util.ArrayList<>(this.slot.expected(100));
		expected.remove("V50");
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(expected);
	}

	@Test
	void oneShotRunCommitsExactlyItsBudget() {
		this.slot = new MockSlot(100);
		Worker worker = this.slot.start(MockSlot
			.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofMillis(50)), MockSlot.strings(),
					new WorkerSettings.Bounds(40, null))
			.toBuilder().ordering(Ordering.NONE).maxInFlight(16).build(), RecordProcessor.of(ConcurrentWorkerSlotTests::upper));
		assertThat(worker.awaitTermination(WAIT)).isTrue();
		assertThat(worker.state().committedRecords()).isEqualTo(40);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(40));
	}

	@Test
	void gracefulStopTakesBackTheRecordsInFlightAndCommitsThem() throws Exception {
		this.slot = new MockSlot(1000);
		AtomicInteger started = new AtomicInteger();
		Worker worker = this.slot.start(settings(Ordering.NONE, 50), RecordProcessor.of((String value) -> {
			started.incrementAndGet();
			Thread.sleep(20);
			return upper(value);
		}));
		await().atMost(WAIT).until(() -> started.get() >= 100);
		assertThat(worker.stop()).isTrue();
		long committed = this.slot.committedOffset();
		// Every record started before the stop was taken back: nothing in flight is lost to
		// a replay, and what was committed is a gap-free prefix of the input.
		assertThat(committed).isGreaterThanOrEqualTo(100);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected((int) committed));
		assertThat(worker.state().slots().get(0).inFlight()).isZero();
	}

	@ParameterizedTest
	@EnumSource(value = Ordering.class, names = { "PARTITION", "KEY", "NONE" })
	void aFailureAfterTheStopIsRequestedCommitsNothingPastTheFailedRecord(Ordering ordering) throws Exception {
		this.slot = new MockSlot(10);
		CountDownLatch failing = new CountDownLatch(1);
		CountDownLatch fail = new CountDownLatch(1);
		Worker worker = this.slot.start(settings(ordering, (ordering == Ordering.PARTITION) ? 1 : 16),
				(RecordProcessor<String, String>) (record, output) -> {
					if (record.offset() == 5) {
						failing.countDown();
						fail.await(1, TimeUnit.MINUTES);
						throw new IllegalStateException("pricing service down");
					}
					output.toDestination(record.key(), upper(record.value()), null);
				});
		assertThat(failing.await(1, TimeUnit.MINUTES)).isTrue();
		Thread stopping = new Thread(worker::stop);
		stopping.start();
		// The stop is requested: the worker waits for its slot.
		await().atMost(WAIT).until(() -> stopping.getState() == Thread.State.TIMED_WAITING);
		fail.countDown();
		stopping.join(WAIT.toMillis());
		long committed = this.slot.committedOffset();
		assertThat(committed).as("committed offset").isLessThanOrEqualTo(5);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(
				this.slot.expected((int) Math.max(committed, 0)));
	}

	@Test
	void aRecordThatAlwaysFailsStallsTheSlotWhileOthersAreInFlight() {
		// Fewer records than the slot takes in flight: it polls on while they run.
		this.slot = new MockSlot(20);
		Worker worker = this.slot.start(settings(Ordering.KEY, 16), RecordProcessor.of((String value) -> {
			// A slow call, so records run on the pool and the slot polls without waiting.
			Thread.sleep(2);
			if (value.equals("v3")) {
				throw new IllegalStateException("pricing service down");
			}
			return upper(value);
		}));
		// STALLED, and it stays so: a poll that returns nothing while records are in flight
		// is no sign that the failure has gone away.
		await().atMost(WAIT).during(Duration.ofSeconds(2)).until(() -> worker.state().status() == WorkerStatus.STALLED);
		assertThat(worker.state().committedRecords()).isLessThanOrEqualTo(3);
	}

	private static WorkerSettings settings(Ordering ordering, int maxInFlight) {
		return MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofMillis(50)), MockSlot.strings())
			.toBuilder().ordering(ordering).maxInFlight(maxInFlight).build();
	}

	private static WorkerSettings settings(Mode mode, Codecs codecs, Ordering ordering, int maxInFlight) {
		return MockSlot.settings(mode, new TransactionSizing(100, Duration.ofMillis(50)), codecs)
			.toBuilder().ordering(ordering).maxInFlight(maxInFlight).build();
	}

	private static Codecs invalidAt(int offset) {
		return new Codecs(new StringDeserializer(), new BadAt(offset), new StringSerializer(), new StringSerializer(),
				List.of(BadBytesException.class));
	}

	private static String upper(String value) {
		return value.toUpperCase(Locale.ROOT);
	}

}
