package dev.lockstep.worker;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.worker.WorkerSettings.Bounds;
import dev.lockstep.worker.WorkerSettings.Codecs;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import dev.lockstep.worker.observation.TransactionObservationContext;
import dev.lockstep.worker.observation.WorkerObservations;
import io.micrometer.observation.ObservationRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.errors.UnreleasedInstanceIdException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every failure category, the rewind, the stall status and fences the slot re-initialises
 * from, driven through one slot on Kafka's mock clients ({@link SlotEvidenceTests} has the
 * evidence a slot stops on).
 */
class WorkerSlotTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private MockSlot slot;

	@AfterEach
	void stop() {
		if (this.slot != null) {
			this.slot.close();
		}
	}

	@Test
	void processorFailureAbortsRewindsAndReplaysWithExactOutput() {
		this.slot = new MockSlot(20);
		AtomicInteger calls = new AtomicInteger();
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofSeconds(5)),
				MockSlot.strings()), RecordProcessor.of((String value) -> {
					if (calls.incrementAndGet() == 7) {
						throw new IllegalStateException("pricing service down");
					}
					return value.toUpperCase(Locale.ROOT);
				}));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 20);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(20));
		assertThat(this.slot.slot().recentErrors()).anyMatch((error) -> error.contains("ABORTABLE"));
	}

	@Test
	void aRecordFailingAgainAndAgainKeepsTheLagOfEveryUncommittedRecord() {
		this.slot = new MockSlot(10);
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofSeconds(5)),
				MockSlot.strings()), RecordProcessor.of((String value) -> {
					if (value.equals("v7")) {
						throw new IllegalStateException("pricing service down");
					}
					return value.toUpperCase(Locale.ROOT);
				}));
		// Every record is read on each attempt, none committed: the lag is all ten of them.
		await().atMost(WAIT)
			.until(() -> this.slot.slot().recentErrors().stream().filter((error) -> error.contains("ABORTABLE")).count() >= 2);
		assertThat(this.slot.slot().lag()).containsEntry(MockSlot.PARTITION.toString(), 10L);
		assertThat(worker.state().committedRecords()).isZero();
	}

	@Test
	void aRecordWaitingForItsNextAttemptCountsItsUncommittedRecordsInTheLagOnce() {
		this.slot = new MockSlot(10);
		WorkerSettings settings = MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofMillis(20)),
				MockSlot.strings())
			.toBuilder()
			.retry(new WorkerSettings.Retry(3, Duration.ofMinutes(1), 2, Duration.ofMinutes(1), 0, Mode.BLOCK, List.of()))
			.build();
		Worker worker = this.slot.start(settings, RecordProcessor.of((String value) -> {
			if (value.equals("v7")) {
				throw new IllegalStateException("pricing service down");
			}
			return value.toUpperCase(Locale.ROOT);
		}));
		// v0..v6 committed; v7 waits a minute, its partition sought back to it: v7..v9 to do.
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 7);
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(this.slot.slot().lag()).containsEntry(MockSlot.PARTITION.toString(), 3L));
		assertThat(this.slot.consumer.paused()).containsExactly(MockSlot.PARTITION);
		assertThat(this.slot.slot().status()).isEqualTo(WorkerStatus.RUNNING);
	}

	@Test
	void aRecordWaitingForItsNextAttemptWaitsOnThroughAnEagerRebalanceThatGivesItsPartitionBack() {
		this.slot = new MockSlot(10);
		WorkerSettings settings = MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofMillis(20)),
				MockSlot.strings())
			.toBuilder()
			.retry(new WorkerSettings.Retry(3, Duration.ofMillis(300), 1, Duration.ofMillis(300), 0, Mode.BLOCK,
					List.of()))
			.build();
		List<Long> attemptsOfV7 = new CopyOnWriteArrayList<>();
		Worker worker = this.slot.start(settings, RecordProcessor.of((String value) -> {
			if (value.equals("v7")) {
				attemptsOfV7.add(System.nanoTime());
				if (attemptsOfV7.size() == 1) {
					// An eager rebalance: every partition revoked, then assigned again from
					// the committed offset (what the slot commits before the revocation).
					MockConsumer<byte[], byte[]> consumer = this.slot.consumer;
					consumer.schedulePollTask(() -> consumer.rebalance(List.of()));
					consumer.schedulePollTask(() -> {
						consumer.commitSync(Map.of(MockSlot.PARTITION, new OffsetAndMetadata(7)));
						consumer.rebalance(List.of(MockSlot.PARTITION));
					});
				}
				if (attemptsOfV7.size() < 3) {
					throw new IllegalStateException("pricing service down");
				}
			}
			return value.toUpperCase(Locale.ROOT);
		}));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 10);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(10));
		assertThat(attemptsOfV7).hasSize(3);
		// Each attempt after its back-off, the rebalance in between notwithstanding.
		assertThat(attemptsOfV7.get(1) - attemptsOfV7.get(0)).isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
		assertThat(attemptsOfV7.get(2) - attemptsOfV7.get(1)).isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
	}

	@Test
	void outputCodecThatCannotReachItsRegistryIsRetriedNeverQuarantined() {
		this.slot = new MockSlot(10);
		AtomicBoolean registryDown = new AtomicBoolean(true);
		Codecs codecs = new Codecs(new StringDeserializer(), new StringDeserializer(), new StringSerializer(),
				new OutageSerializer(registryDown), List.of(BadBytesException.class));
		Worker worker = this.slot.start(MockSlot.settings(Mode.QUARANTINE,
				new TransactionSizing(100, Duration.ofMillis(50)), codecs), RecordProcessor.of(WorkerSlotTests::upper));
		await().atMost(WAIT).until(() -> this.slot.slot().recentErrors().size() >= 5);
		assertThat(worker.state().committedRecords()).isZero();
		registryDown.set(false);
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 10);
		assertThat(this.slot.committed(MockSlot.QUARANTINE)).isEmpty();
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(10));
	}

	@Test
	void codecFailureOfADeclaredInvalidDataTypeIsQuarantinedInTheTransaction() {
		this.slot = new MockSlot(10);
		Codecs codecs = new Codecs(new StringDeserializer(), new BadAt(3), new StringSerializer(),
				new StringSerializer(), List.of(BadBytesException.class));
		Worker worker = this.slot.start(MockSlot.settings(Mode.QUARANTINE,
				new TransactionSizing(100, Duration.ofMillis(50)), codecs), RecordProcessor.of(WorkerSlotTests::upper));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 10);
		assertThat(this.slot.committed(MockSlot.QUARANTINE)).containsExactly("v3");
		assertThat(this.slot.committed(MockSlot.OUTPUT)).hasSize(9).doesNotContain("V3");
	}

	@Test
	void quarantineBlocksInsteadWhenMostRecentRecordsAreInvalid() {
		this.slot = new MockSlot(300);
		// Every record from 100 on is invalid, as when a worker reads with the wrong registry.
		Codecs codecs = new Codecs(new StringDeserializer(), new BadFrom(100), new StringSerializer(),
				new StringSerializer(), List.of(BadBytesException.class));
		Worker worker = this.slot.start(MockSlot.settings(Mode.QUARANTINE,
				new TransactionSizing(1000, Duration.ofMillis(50)), codecs), RecordProcessor.of(WorkerSlotTests::upper));
		await().atMost(WAIT).until(() -> worker.state().status() == WorkerStatus.BLOCKED);
		SlotState state = this.slot.slot();
		assertThat(state.blockedAt().reason()).contains("more than 50% of the last 100 records were invalid");
		// 100 valid, then 50 quarantined, then the 51st invalid of the window blocks.
		assertThat(state.blockedAt().offset()).isEqualTo(150);
		assertThat(this.slot.committed(MockSlot.QUARANTINE)).hasSize(50);
		assertThat(this.slot.committedOffset()).isEqualTo(150);
	}

	@Test
	void fencedGroupInstanceIdIsATakeoverEvenInATransactionOlderThanItsTimeout() {
		this.slot = new MockSlot(10);
		AtomicInteger calls = new AtomicInteger();
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK,
				new TransactionSizing(100, Duration.ofSeconds(5), Duration.ofSeconds(1)), MockSlot.strings()),
				RecordProcessor.of((String value) -> {
					if (calls.incrementAndGet() == 10) {
						// The transaction outlives its timeout (a fence of the producer would be
						// re-initialised from), then the group reports another member with this
						// slot's static member id.
						await().pollDelay(Duration.ofMillis(1100)).atMost(WAIT).until(() -> true);
						this.slot.consumer.setPollException(new FencedInstanceIdException("tx-i-0 joined again"));
					}
					return upper(value);
				}));
		await().atMost(WAIT).until(() -> worker.state().status() == WorkerStatus.FENCED);
		assertThat(this.slot.slot().recentErrors()).anyMatch((error) -> error.contains("tx-i-0 took over"));
		assertThat(this.slot.producers).hasSize(1);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).isEmpty();
	}

	@Test
	void consumerRefusedItsStaticMemberIdJoinsAgainWithANewConsumer() {
		this.slot = new MockSlot(10);
		MockConsumer<byte[], byte[]> refused = refusedConsumer();
		this.slot.earlierConsumers.add(refused);
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofSeconds(5)),
				MockSlot.strings()), RecordProcessor.of(WorkerSlotTests::upper));
		await().atMost(WAIT).until(() -> this.slot.committed(MockSlot.OUTPUT).size() == 10);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).isEqualTo(this.slot.expected(10));
		assertThat(refused.closed()).isTrue();
		assertThat(this.slot.slot().recentErrors()).anyMatch((error) -> error.contains("REJOIN after"));
		assertThat(this.slot.producers).hasSize(1);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
	}

	@Test
	void aConsumerDeniedAnInputTopicIsReplacedByOneThatAsksTheClusterAgain() {
		this.slot = new MockSlot(10);
		// Kafka's consumer keeps the denial until its metadata expires: only a new one sees a grant.
		MockConsumer<byte[], byte[]> denied = new MockConsumer<>("earliest") {

			@Override
			public synchronized ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
				throw new TopicAuthorizationException(Set.of(MockSlot.INPUT));
			}

		};
		this.slot.earlierConsumers.add(denied);
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofSeconds(5)),
				MockSlot.strings()), RecordProcessor.of(WorkerSlotTests::upper));
		await().atMost(WAIT).until(() -> this.slot.committed(MockSlot.OUTPUT).size() == 10);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).isEqualTo(this.slot.expected(10));
		assertThat(denied.closed()).isTrue();
		assertThat(this.slot.slot().recentErrors())
			.anyMatch((error) -> error.contains("FATAL after TopicAuthorizationException")
					&& error.contains(MockSlot.INPUT));
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
	}

	@Test
	void aConsumerRefusedPastAOneShotRunsInputDeadlineFailsTheRun() {
		this.slot = new MockSlot(10);
		// Refused for at least 2,000 back-offs of 20 ms (40 s), far past the 0.5 s deadline,
		// which must end the run while the slot is still being refused.
		for (int i = 0; i < 2000; i++) {
			this.slot.earlierConsumers.add(refusedConsumer());
		}
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofSeconds(5)),
				MockSlot.strings(), new Bounds(0, Duration.ofMillis(500))), RecordProcessor.of(WorkerSlotTests::upper));
		await().atMost(Duration.ofSeconds(20)).until(() -> worker.state().status() == WorkerStatus.FAILED);
		assertThat(this.slot.earlierConsumers).isNotEmpty();
		assertThat(this.slot.slot().recentErrors()).anyMatch((error) -> error.contains("input deadline"));
		assertThat(this.slot.committed(MockSlot.OUTPUT)).isEmpty();
	}

	/**
	 * A consumer as the consumer group protocol leaves it while an earlier member that
	 * crashed still holds the slot's static member id: its heartbeat was refused, which is
	 * fatal for it, and every poll says so.
	 */
	private static MockConsumer<byte[], byte[]> refusedConsumer() {
		return new MockConsumer<>("earliest") {

			@Override
			public synchronized ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
				throw new UnreleasedInstanceIdException("instance id tx-i-0 is owned by another member");
			}

		};
	}

	@Test
	void fencesAfterTransactionsOutlivedTheirTimeoutAreReinitialisedFromHoweverCloseTogether() {
		this.slot = new MockSlot(10);
		AtomicInteger calls = new AtomicInteger();
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK,
				new TransactionSizing(100, Duration.ofSeconds(5), Duration.ofSeconds(1)), MockSlot.strings()),
				RecordProcessor.of((String value) -> {
					int call = calls.incrementAndGet();
					if (call == 5 || call == 7) {
						// Both transactions outlive the timeout (the coordinator aborts them and
						// bumps the epoch), the second soon after the first re-initialisation.
						await().pollDelay(Duration.ofMillis(1100)).atMost(WAIT).until(() -> true);
						this.slot.producer().fenceProducer();
					}
					return upper(value);
				}));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 10);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertThat(this.slot.producers).hasSize(3);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(10));
	}

	@Test
	void fenceAfterTheTransactionOutlivedItsTimeoutReinitialisesAndContinuesExactly() {
		this.slot = new MockSlot(10);
		AtomicInteger calls = new AtomicInteger();
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK,
				new TransactionSizing(100, Duration.ofMillis(100), Duration.ofMillis(300)), MockSlot.strings()),
				RecordProcessor.of((String value) -> {
					if (calls.incrementAndGet() == 5) {
						// A pause past the transaction timeout: the coordinator aborts the
						// transaction and bumps the epoch, which fences this producer.
						await().pollDelay(Duration.ofMillis(400)).until(() -> true);
						this.slot.producer().fenceProducer();
					}
					return upper(value);
				}));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 10);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertThat(this.slot.producers).hasSize(2);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(10));
	}

	@Test
	void fenceMetWhileAnAbortIsRetriedPastTheTransactionTimeoutReinitialises() {
		this.slot = new MockSlot(10);
		AtomicInteger calls = new AtomicInteger();
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK,
				new TransactionSizing(100, Duration.ofSeconds(5), Duration.ofMillis(300)), MockSlot.strings()),
				RecordProcessor.of((String value) -> {
					if (calls.incrementAndGet() == 5) {
						// The broker goes away: the send fails and the abort times out, again and again.
						this.slot.producer().abortTransactionException = new TimeoutException("broker down");
						throw new IllegalStateException("send failed");
					}
					return upper(value);
				}));
		await().atMost(WAIT).until(() -> this.slot.slot().recentErrors().stream()
			.anyMatch((error) -> error.contains("abort timed out, retrying")));
		await().pollDelay(Duration.ofMillis(400)).atMost(WAIT).until(() -> true);
		// Back after the transaction timeout: the coordinator aborted it and bumped the epoch.
		this.slot.producer().fenceProducer();
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 10);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertThat(this.slot.producers).hasSize(2);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(10));
	}

	@Test
	void rewindReplaysFromTheFirstUncommittedRecordWhenTheAssignedPositionWasUnknown() {
		this.slot = new MockSlot(10);
		// The position lookup in the assignment callback fails (a slow coordinator).
		this.slot.consumer.failPositionOnce = true;
		AtomicInteger calls = new AtomicInteger();
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofSeconds(5)),
				MockSlot.strings()), RecordProcessor.of((String value) -> {
					if (calls.incrementAndGet() == 4) {
						throw new IllegalStateException("transient");
					}
					return upper(value);
				}));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 10);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(10));
	}

	@Test
	void transactionIsCommittedWhenDueEvenInTheMiddleOfAPoll() {
		this.slot = new MockSlot(20);
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK, new TransactionSizing(1000, Duration.ofMillis(50)),
				MockSlot.strings()), RecordProcessor.of((String value) -> {
					await().pollDelay(Duration.ofMillis(20)).until(() -> true);
					return upper(value);
				}));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 20);
		// One poll returned all 20 records (400 ms of processing): it did not hold one transaction open.
		assertThat(this.slot.producer().commitCount()).isGreaterThanOrEqualTo(4);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(20));
	}

	@Test
	void sendingOffsetsThatTimesOutIsAbortedRatherThanRetriedPastTheTransactionTimeout() {
		this.slot = new MockSlot(5);
		AtomicBoolean slow = new AtomicBoolean(true);
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK,
				new TransactionSizing(100, Duration.ofMillis(10), Duration.ofMillis(200)), MockSlot.strings()),
				RecordProcessor.of((String value) -> {
					this.slot.producer().sendOffsetsToTransactionException = slow.get() ? new TimeoutException("slow")
							: null;
					return upper(value);
				}));
		await().atMost(WAIT).until(() -> this.slot.slot().recentErrors().stream()
			.anyMatch((error) -> error.contains("RETRIABLE after")));
		slow.set(false);
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 5);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(5));
	}

	@Test
	void commitThatTimesOutIsRetriedAsTheSameCallEvenPastTheTransactionTimeout() {
		this.slot = new MockSlot(5);
		AtomicInteger timeouts = new AtomicInteger(4);
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK,
				new TransactionSizing(5, Duration.ofSeconds(5), Duration.ofMillis(50)), MockSlot.strings()),
				RecordProcessor.of((String value) -> {
					this.slot.producer().commitTransactionException = new TimeoutException("slow");
					return upper(value);
				}));
		// The coordinator may be completing a commit that timed out on the client: giving it
		// up and replaying would duplicate. Only the same call is repeated.
		await().atMost(WAIT).until(() -> this.slot.slot().recentErrors().stream()
			.filter((error) -> error.contains("commit timed out, retrying")).count() >= timeouts.get());
		this.slot.producer().commitTransactionException = null;
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 5);
		assertThat(this.slot.producers).hasSize(1);
		assertThat(this.slot.slot().recentErrors()).noneMatch((error) -> error.contains(" after "));
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(5));
	}

	@Test
	void eachTransactionObservationEndsCommittedAbortedOrUnknownAndEveryRecordsTraceEnds() {
		this.slot = new MockSlot(10);
		OpenObservations observations = new OpenObservations();
		OpenTraces traces = new OpenTraces();
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(observations);
		AtomicInteger calls = new AtomicInteger();
		AtomicBoolean commitFails = new AtomicBoolean();
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofMillis(20)),
				MockSlot.strings()).toBuilder().observations(new WorkerObservations(registry, traces)).build(),
				RecordProcessor.of((String value) -> {
					if (calls.incrementAndGet() == 3) {
						throw new IllegalStateException("transient");
					}
					if (calls.get() > 3 && commitFails.compareAndSet(false, true)) {
						this.slot.producer().commitTransactionException = new TransactionAbortableException("lost");
					}
					return upper(value);
				}));
		// A processing failure aborts; a failed commit may have committed after all.
		await().atMost(WAIT)
			.until(() -> transactionResults(observations).contains(TransactionObservationContext.Result.UNKNOWN));
		this.slot.producer().commitTransactionException = null;
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 10);
		worker.stop();
		assertThat(transactionResults(observations)).startsWith(TransactionObservationContext.Result.ABORTED,
				TransactionObservationContext.Result.UNKNOWN);
		assertThat(transactionResults(observations)).last()
			.isEqualTo(TransactionObservationContext.Result.COMMITTED);
		assertThat(observations.open()).as("observations started and never stopped").isZero();
		assertThat(traces.open()).as("record traces started and never ended").isZero();
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(10));
	}

	private static List<TransactionObservationContext.Result> transactionResults(OpenObservations observations) {
		return observations.stopped()
			.stream()
			.filter(TransactionObservationContext.class::isInstance)
			.map((context) -> ((TransactionObservationContext) context).getResult())
			.toList();
	}

	@Test
	void oneShotRunCommitsExactlyItsBudgetThroughAFailure() {
		this.slot = new MockSlot(20);
		AtomicInteger calls = new AtomicInteger();
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofSeconds(5)),
				MockSlot.strings(), new WorkerSettings.Bounds(10, null)), RecordProcessor.of((String value) -> {
					if (calls.incrementAndGet() == 6) {
						throw new IllegalStateException("transient");
					}
					return upper(value);
				}));
		assertThat(worker.awaitTermination(WAIT)).isTrue();
		assertThat(worker.state().committedRecords()).isEqualTo(10);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(10));
	}

	@Test
	void operatorSkipOfABlockedRecordCommitsPastItOnce() {
		this.slot = new MockSlot(6);
		Codecs codecs = new Codecs(new StringDeserializer(), new BadAt(2), new StringSerializer(),
				new StringSerializer(), List.of(BadBytesException.class));
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK,
				new TransactionSizing(100, Duration.ofMillis(20)), codecs), RecordProcessor.of(WorkerSlotTests::upper));
		await().atMost(WAIT).until(() -> worker.state().status() == WorkerStatus.BLOCKED);
		assertThat(worker.skipBlockedRecords()).singleElement().satisfies((blocked) -> assertThat(blocked.offset()).isEqualTo(2));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 6);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertThat(this.slot.committed(MockSlot.QUARANTINE)).containsExactly("v2");
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactly("V0", "V1", "V3", "V4", "V5");
	}

	@Test
	void recoveryPolicyMayTurnAnApplicationExceptionIntoInvalidInput() {
		this.slot = new MockSlot(5);
		RecoveryPolicy policy = (failure, classified) -> (failure instanceof IllegalArgumentException)
				? FailureCategory.INVALID_INPUT : classified;
		Worker worker = this.slot.start(MockSlot.settings(Mode.QUARANTINE,
				new TransactionSizing(100, Duration.ofMillis(20)), MockSlot.strings()),
				RecordProcessor.of((String value) -> {
					if (value.equals("v2")) {
						throw new IllegalArgumentException("no such product");
					}
					return upper(value);
				}), policy);
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 5);
		assertThat(this.slot.committed(MockSlot.QUARANTINE)).containsExactly("v2");
	}

	private static String upper(String value) {
		return value.toUpperCase(Locale.ROOT);
	}

	/** A codec's "these bytes are bad" exception. */
	static class BadBytesException extends SerializationException {

		private static final long serialVersionUID = 1L;

		BadBytesException(String message) {
			super(message);
		}

	}

	/** Fails like a registry serializer whose registry cannot be reached. */
	record OutageSerializer(AtomicBoolean down) implements Serializer<String> {

		@Override
		public byte[] serialize(String topic, String data) {
			if (this.down.get()) {
				throw new SerializationException("Could not resolve the schema id: I/O failure",
						new java.net.ConnectException("Connection refused"));
			}
			return MockSlot.bytes(data);
		}

		@Override
		public byte[] serialize(String topic, Headers headers, String data) {
			return serialize(topic, data);
		}

	}

	/** Decodes strings, but value {@code v<n>} is bad bytes. */
	static class BadAt extends StringDeserializer {

		private final String bad;

		BadAt(int n) {
			this.bad = "v" + n;
		}

		@Override
		public String deserialize(String topic, Headers headers, byte[] data) {
			String value = super.deserialize(topic, headers, data);
			if (value.equals(this.bad)) {
				throw new BadBytesException("magic byte 0x7b is not 0");
			}
			return value;
		}

	}

	/** Decodes strings, but every value from {@code v<n>} on is bad bytes. */
	static class BadFrom extends StringDeserializer {

		private final int from;

		BadFrom(int from) {
			this.from = from;
		}

		@Override
		public String deserialize(String topic, Headers headers, byte[] data) {
			String value = super.deserialize(topic, headers, data);
			if (Integer.parseInt(value.substring(1)) >= this.from) {
				throw new BadBytesException("unknown schema id 7 (40403)");
			}
			return value;
		}

	}

}
