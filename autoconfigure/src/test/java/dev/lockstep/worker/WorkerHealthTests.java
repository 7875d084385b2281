package dev.lockstep.worker;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.lockstep.autoconfigure.health.LockstepWorkersHealthIndicator;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The workers' health indicator over a slot that stalls and recovers, or repeats calls
 * that time out, driven through one slot on Kafka's mock clients (the worker module's
 * {@code WorkerSlotTests} and {@code SlotEvidenceTests} have the slot's side).
 */
class WorkerHealthTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private MockSlot slot;

	@AfterEach
	void stop() {
		if (this.slot != null) {
			this.slot.close();
		}
	}

	@Test
	void slotThatOnlyAbortsIsStalledUntilItCommitsAgain() {
		this.slot = new MockSlot(10);
		AtomicBoolean broken = new AtomicBoolean(true);
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofMillis(20)),
				MockSlot.strings()), RecordProcessor.of((String value) -> {
					if (broken.get()) {
						this.slot.producer().commitTransactionException = new TransactionAbortableException("too large");
					}
					else {
						this.slot.producer().commitTransactionException = null;
					}
					return upper(value);
				}));
		LockstepWorkersHealthIndicator health = new LockstepWorkersHealthIndicator(
				new LockstepWorkers(Map.of("mock", worker), Set.of()));
		await().atMost(WAIT).until(() -> worker.state().status() == WorkerStatus.STALLED);
		assertThat(worker.state().committedRecords()).isZero();
		assertThat(this.slot.slot().recentErrors())
			.anyMatch((error) -> error.contains("STALLED: 3 failed transactions"));
		// Still recovering, and nothing says another instance or a permanent error stops it.
		assertThat(health.health(true).getStatus()).isEqualTo(LockstepWorkersHealthIndicator.RECOVERING);
		broken.set(false);
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 10);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);
		assertThat(this.slot.committed(MockSlot.OUTPUT)).containsExactlyElementsOf(this.slot.expected(10));
	}

	@Test
	void callsThatTimeOutAndAreRepeatedNeitherStallTheSlotNorTakeItsHealthDown() {
		this.slot = new MockSlot(5);
		Worker worker = this.slot.start(MockSlot.settings(Mode.BLOCK,
				new TransactionSizing(5, Duration.ofSeconds(5), Duration.ofMinutes(1)), MockSlot.strings()),
				RecordProcessor.of((String value) -> {
					this.slot.producer().commitTransactionException = new TimeoutException("broker down");
					return upper(value);
				}));
		LockstepWorkersHealthIndicator health = new LockstepWorkersHealthIndicator(
				new LockstepWorkers(Map.of("mock", worker), Set.of()));
		// Ten times the stall threshold of repeated calls: the broker is down for a while.
		await().atMost(WAIT).until(() -> this.slot.slot().recentErrors().stream()
			.filter((error) -> error.contains("commit timed out, retrying")).count() >= 30);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);
		this.slot.producer().commitTransactionException = null;
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 5);
		assertThat(this.slot.slot().recentErrors()).noneMatch((error) -> error.contains("STALLED"));
	}

	private static String upper(String value) {
		return value.toUpperCase(Locale.ROOT);
	}

}
