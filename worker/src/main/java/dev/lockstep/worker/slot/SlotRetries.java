package dev.lockstep.worker.slot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import dev.lockstep.worker.FailureCategory;
import dev.lockstep.worker.FailureClassifier;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.ordering.SlotProcessing;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import org.springframework.core.log.LogAccessor;

/**
 * A slot's part in the worker's {@link WorkerSettings.Retry retry budget}: the attempts
 * of the record each partition is retrying, and the partitions held until their record's
 * next attempt. A record to try again is not kept in hand: its partition is sought back
 * to it and paused, so the slot goes on with its other partitions and commits on its
 * interval, and the record comes back from a poll once its back-off has passed. Attempts
 * are counted by the slot that reads the partition, through rebalances that give it back.
 * Slot thread only.
 */
final class SlotRetries {

	private static final LogAccessor logger = new LogAccessor(SlotRetries.class);

	private final SlotId id;

	private final WorkerSettings.Retry retry;

	private final SlotConsumers consumers;

	private final SlotProcessing processing;

	private final RewindPoints rewindPoints;

	private final WorkerListener listener;

	// The record each partition is retrying, and its failures so far.
	private final Map<TopicPartition, RetryAttempts> attempts = new HashMap<>();

	// Partitions paused until their record's next attempt: when (System.nanoTime) each resumes.
	private final Map<TopicPartition, Long> held = new HashMap<>();

	SlotRetries(SlotId id, WorkerSettings.Retry retry, SlotConsumers consumers, SlotProcessing processing,
			RewindPoints rewindPoints, WorkerListener listener) {
		this.id = id;
		this.retry = retry;
		this.consumers = consumers;
		this.processing = processing;
		this.rewindPoints = rewindPoints;
		this.listener = listener;
	}

	/**
	 * Return whether the budget covers a failed record: its processor threw a failure of
	 * the category retried, of a type retried.
	 * @param record the record
	 * @param category the failure's category
	 * @return whether it counts against the budget
	 */
	boolean covers(ProcessedRecord record, FailureCategory category) {
		return this.retry.isEnabled() && record.processorFailed() && category == FailureCategory.ABORTABLE
				&& isRetried(record.failure());
	}

	/**
	 * Count a failed attempt of a record.
	 * @param record the record, failed
	 * @return its attempts, this one included
	 */
	RetryAttempts failed(ProcessedRecord record) {
		ConsumerRecord<byte[], byte[]> raw = record.raw();
		TopicPartition partition = new TopicPartition(raw.topic(), raw.partition());
		RetryAttempts before = this.attempts.get(partition);
		RetryAttempts now = (before != null && before.offset() == raw.offset()) ? before.failedAgain(record.failure())
				: RetryAttempts.first(raw.offset(), record.failure());
		this.attempts.put(partition, now);
		return now;
	}

	/**
	 * Return whether a record may be tried again.
	 * @param attempts its attempts so far
	 * @return whether the budget has attempts left
	 */
	boolean hasAttemptsLeft(RetryAttempts attempts) {
		return attempts.count() < this.retry.attempts();
	}

	/**
	 * Return what becomes of a record whose attempts are spent, as the budget says.
	 * @return quarantine it or block at it
	 */
	WorkerSettings.InvalidInputPolicy.Mode whenSpent() {
		return this.retry.exhausted();
	}

	/**
	 * A record's attempts are spent: say so the first time, with what became of it (a
	 * record blocked at fails again and again, and is told once).
	 * @param attempts its failed attempts
	 * @param outcome quarantined, or blocked at
	 */
	void spent(RetryAttempts attempts, WorkerSettings.InvalidInputPolicy.Mode outcome) {
		if (attempts.count() != this.retry.attempts()) {
			return;
		}
		try {
			this.listener.retriesExhausted(this.id.worker(), this.id.index(), outcome);
		}
		catch (RuntimeException ex) {
			logger.warn(ex, () -> this.id + " listener failed on spent retries");
		}
	}

	/**
	 * Hold a record's partition until its next attempt: the partition's records in hand are
	 * dropped, and its consumer sought back to the record and paused.
	 * @param record the record, failed with attempts left
	 * @param attempts its attempts so far
	 */
	void holdForNextAttempt(ProcessedRecord record, RetryAttempts attempts) {
		ConsumerRecord<byte[], byte[]> raw = record.raw();
		TopicPartition partition = new TopicPartition(raw.topic(), raw.partition());
		Duration backoff = backoff(attempts.count());
		this.processing.discard(List.of(partition));
		Consumer<byte[], byte[]> consumer = this.consumers.current();
		consumer.seek(partition, raw.offset());
		consumer.pause(List.of(partition));
		// Read again from the record on: not counted twice in the partition's lag.
		this.rewindPoints.readUpTo(partition, raw.offset());
		this.held.put(partition, System.nanoTime() + backoff.toNanos());
		record.trace()
			.inScope(() -> logger.info(() -> this.id + " retries " + partition + "@" + raw.offset() + " in "
					+ backoff.toMillis() + " ms (attempt " + (attempts.count() + 1) + " of "
					+ this.retry.attempts() + ") after " + FailureClassifier.describe(record.failure())));
		try {
			this.listener.recordRetried(this.id.worker(), this.id.index(), attempts.count());
		}
		catch (RuntimeException ex) {
			logger.warn(ex, () -> this.id + " listener failed on a retry");
		}
	}

	/**
	 * A record was taken into the open transaction (processed, quarantined or skipped): its
	 * partition's attempts are done with.
	 * @param raw the record
	 */
	void done(ConsumerRecord<byte[], byte[]> raw) {
		if (!this.attempts.isEmpty()) {
			TopicPartition partition = new TopicPartition(raw.topic(), raw.partition());
			RetryAttempts retrying = this.attempts.get(partition);
			if (retrying != null && raw.offset() >= retrying.offset()) {
				this.attempts.remove(partition);
			}
		}
	}

	/**
	 * Resume the held partitions whose back-off has passed, unless an operator paused the
	 * slot: they wait for the operator's resume, which leaves them to this.
	 * @param pausedByOperator whether the slot is paused
	 */
	void resumeDue(boolean pausedByOperator) {
		if (this.held.isEmpty() || pausedByOperator) {
			return;
		}
		long now = System.nanoTime();
		List<TopicPartition> due = new ArrayList<>();
		this.held.forEach((partition, until) -> {
			if (now - until >= 0) {
				due.add(partition);
			}
		});
		if (!due.isEmpty()) {
			due.forEach(this.held::remove);
			Consumer<byte[], byte[]> consumer = this.consumers.current();
			Set<TopicPartition> assigned = consumer.assignment();
			consumer.resume(due.stream().filter(assigned::contains).toList());
		}
	}

	/**
	 * Return whether a partition is paused for a retry, which an operator's resume leaves paused.
	 * @param partition the partition
	 * @return whether it is held
	 */
	boolean isHeld(TopicPartition partition) {
		return this.held.containsKey(partition);
	}

	/**
	 * Return whether a partition waits for a record's next attempt: input is pending
	 * however long polls return nothing.
	 * @return whether any partition is held
	 */
	boolean isHolding() {
		return !this.held.isEmpty();
	}

	/**
	 * Partitions assigned to the slot (again, after an eager rebalance or a new consumer):
	 * those still waiting for a record's next attempt are paused again, their attempts
	 * counted on. (Attempts of a partition another member took are kept, keyed by their
	 * record's offset, in case it comes back.)
	 * @param partitions the partitions
	 * @param consumer the consumer they are assigned to
	 */
	void assigned(Collection<TopicPartition> partitions, Consumer<byte[], byte[]> consumer) {
		if (!this.held.isEmpty()) {
			consumer.pause(partitions.stream().filter(this.held::containsKey).toList());
		}
	}

	/**
	 * Partitions moved by an operator: their attempts are forgotten, and a held one resumes
	 * at the next round.
	 * @param partitions the partitions
	 */
	void moved(Collection<TopicPartition> partitions) {
		long now = System.nanoTime();
		partitions.forEach((partition) -> {
			this.attempts.remove(partition);
			this.held.computeIfPresent(partition, (held, until) -> now);
		});
	}

	private boolean isRetried(Throwable failure) {
		if (this.retry.retryOn().isEmpty()) {
			return true;
		}
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			for (Class<? extends Throwable> type : this.retry.retryOn()) {
				if (type.isInstance(cause)) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * The wait after a record's {@code failed}th failed attempt: the initial back-off grown
	 * by the multiplier for each earlier failure, varied by the jitter, at most the maximum.
	 */
	private Duration backoff(int failed) {
		double millis = Math.min(this.retry.maxBackoff().toMillis(),
				this.retry.initialBackoff().toMillis() * Math.pow(this.retry.multiplier(), failed - 1));
		double jitter = this.retry.jitter() * (2 * ThreadLocalRandom.current().nextDouble() - 1);
		return Duration.ofMillis(Math.round(Math.min(this.retry.maxBackoff().toMillis(), millis * (1 + jitter))));
	}

}
