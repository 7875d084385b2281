package dev.lockstep.worker;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.InvalidTxnTimeoutException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.errors.UnknownServerException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A slot stops, or its health says DOWN, only on evidence the cluster gives: each case
 * where the slot once stopped or reported DOWN on a guess, and the real twin it must
 * still catch, driven through one slot on Kafka's mock clients.
 */
class SlotEvidenceTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private MockSlot slot;

	@AfterEach
	void stop() {
		if (this.slot != null) {
			this.slot.close();
		}
	}

	@Test
	void retriedAbortsFencedByTheirOwnFirstAttemptAreReinitialisedFromHoweverCloseTogether() {
		// Two broker restarts seconds apart: each time the open transaction's abort times
		// out, is repeated, and meets the epoch its first attempt bumped.
		this.slot = new MockSlot(10);
		AtomicInteger calls = new AtomicInteger();
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK,
				new TransactionSizing(100, Duration.ofSeconds(5), Duration.ofSeconds(10)), MockSlot.strings()),
				RecordProcessor.of((String value) -> {
					int call = calls.incrementAndGet();
					if (call == 3 || call == 6) {
						this.slot.producer().abortTransactionException = new TimeoutException("broker restarting");
						throw new IllegalStateException("send failed: broker restarting");
					}
					return upper(value);
				}));
		for (int restart = 1; restart <= 2; restart++) {
			int producers = restart;
			await().atMost(WAIT).until(() -> this.slot.producers.size() == producers && this.slot.slot()
				.recentErrors()
				.stream()
				.filter((error) -> error.contains("abort timed out, retrying"))
				.count() >= producers);
			this.slot.producer().fenceProducer();
		}
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 10);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertThat(this.slot.producers).hasSize(3);
		assertThat(this.slot.slot().recentErrors()).noneMatch((error) -> error.contains("took over"))
			.anyMatch((error) -> error.contains("Producer fenced (a transaction call timed out and was repeated)"));
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(10));
	}

	@Test
	void commitBeforeRevokeFencedOnItsRetryKeepsTheEvidenceThroughTheAbortThatFollows() {
		this.slot = new MockSlot(10);
		AtomicInteger calls = new AtomicInteger();
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK,
				new TransactionSizing(100, Duration.ofSeconds(5), Duration.ofSeconds(10)), MockSlot.strings()),
				RecordProcessor.of((String value) -> {
					if (calls.incrementAndGet() == 5) {
						// The partition is revoked while the coordinator moves: the commit
						// before revocation times out and is repeated.
						this.slot.producer().commitTransactionException = new TimeoutException("coordinator moving");
						this.slot.consumer.schedulePollTask(() -> this.slot.consumer.rebalance(List.of()));
						this.slot.consumer
							.schedulePollTask(() -> this.slot.consumer.rebalance(List.of(MockSlot.PARTITION)));
					}
					return upper(value);
				}));
		await().atMost(WAIT).until(() -> this.slot.slot().recentErrors().stream()
			.anyMatch((error) -> error.contains("commit timed out, retrying")));
		// The repeated commit meets the epoch its first attempt bumped; so does the abort after it.
		this.slot.producer().fenceProducer();
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 10);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertThat(this.slot.producers).hasSize(2);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(10));
	}

	@Test
	void aFenceNothingExplainsIsReinitialisedFromAndASecondOneIsATakeover() {
		// Another live producer with the slot's transactional id: it initialises the id, the
		// slot takes it back, and the other takes it back again.
		this.slot = new MockSlot(10);
		AtomicInteger calls = new AtomicInteger();
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK,
				new TransactionSizing(100, Duration.ofSeconds(5), Duration.ofMinutes(1)), MockSlot.strings()),
				RecordProcessor.of((String value) -> {
					int call = calls.incrementAndGet();
					if (call == 5 || call == 12) {
						this.slot.producer().fenceProducer();
					}
					return upper(value);
				}));
		await().atMost(WAIT).until(() -> worker.state().status() == WorkerStatus.FENCED);
		assertThat(this.slot.producers).hasSize(2);
		assertThat(this.slot.slot().recentErrors())
			.anyMatch((error) -> error.contains("Producer fenced (another producer initialised the transactional id)"))
			.anyMatch((error) -> error.contains("another instance with transactional id tx-i-0 took over"));
		assertThat(this.slot.committed(MockSlot.OUTPUT)).isEmpty();
	}

	@Test
	void aProcessorsOwnFencedClientIsTheRecordsFailureNotTheSlots() {
		this.slot = new MockSlot(10);
		AtomicInteger calls = new AtomicInteger();
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK,
				new TransactionSizing(100, Duration.ofSeconds(5), Duration.ofMinutes(1)), MockSlot.strings()),
				RecordProcessor.of((String value) -> {
					int call = calls.incrementAndGet();
					if (call == 3) {
						// The processor's own KafkaTemplate, fenced by a twin of its own.
						throw new ProducerFencedException("the processor's audit producer was fenced");
					}
					if (call == 7) {
						throw new FencedInstanceIdException("the processor's own consumer");
					}
					return upper(value);
				}));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 10);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertThat(this.slot.producers).hasSize(1);
		assertThat(this.slot.slot().recentErrors()).anyMatch(
				(error) -> error.contains(" ABORTABLE after ProducerFencedException: the processor's audit producer"));
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(10));
	}

	@Test
	void initialisationFailuresThatMayPassAreRetriedByANewProducerUntilTheyDo() {
		for (RuntimeException failure : List.of(
				new TransactionalIdAuthorizationException("Transactional Id authorization failed."),
				new SaslAuthenticationException("Authentication failed due to invalid credentials"),
				new UnknownServerException("The server experienced an unexpected error"),
				new ProducerFencedException("a concurrent initialisation"))) {
			this.slot = new MockSlot(5);
			// Kafka's producer keeps such a failure for good: until the ACL is granted (the
			// password rotated, the server recovered, the other initialisation done) every
			// new producer fails too.
			for (int attempt = 0; attempt < 3; attempt++) {
				this.slot.initFailures.add(failure);
			}
			Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK,
					new TransactionSizing(100, Duration.ofMillis(20)), MockSlot.strings()),
					RecordProcessor.of(SlotEvidenceTests::upper));
			await().atMost(WAIT).until(() -> worker.state().committedRecords() == 5);
			assertThat(this.slot.slot().recentErrors()).filteredOn((error) -> error.contains(
					"Producer initialisation failed") && error.contains(failure.getClass().getSimpleName())).hasSize(3);
			assertThat(this.slot.producers).hasSize(4);
			assertThat(this.slot.producers.subList(0, 3)).allMatch(MockProducer::closed);
			assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
			assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(5));
			this.slot.close();
		}
	}

	@Test
	void anInitialisationThatTimedOutIsRetriedByTheSameProducer() {
		this.slot = new MockSlot(5);
		this.slot.initFailures.add(new TimeoutException("Timeout expired after 60000ms while awaiting InitProducerId"));
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofMillis(20)),
				MockSlot.strings()), RecordProcessor.of(SlotEvidenceTests::upper));
		await().atMost(WAIT).until(() -> this.slot.slot().recentErrors().stream()
			.filter((error) -> error.contains("Producer initialisation failed (RETRIABLE)"))
			.count() >= 2);
		// The coordinator answers at last.
		this.slot.producer().initTransactionException = null;
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 5);
		assertThat(this.slot.producers).hasSize(1);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(5));
	}

	@Test
	void anInitialisationFailureRetryingCannotChangeFailsTheSlot() {
		this.slot = new MockSlot(5);
		this.slot.initFailures.add(new InvalidTxnTimeoutException(
				"The transaction timeout is larger than the maximum value allowed by the broker"));
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofMillis(20)),
				MockSlot.strings()), RecordProcessor.of(SlotEvidenceTests::upper));
		await().atMost(WAIT).until(() -> worker.state().status() == WorkerStatus.FAILED);
		assertThat(this.slot.slot().recentErrors())
			.anyMatch((error) -> error.contains("producer initialisation failed: InvalidTxnTimeoutException"));
	}

	private static String upper(String value) {
		return value.toUpperCase(Locale.ROOT);
	}

}
