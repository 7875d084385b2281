package dev.lockstep.worker.slot;

import java.util.Set;

import dev.lockstep.worker.FailureCategory;
import dev.lockstep.worker.FailureClassifier;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.ordering.SlotProcessing;

import org.springframework.core.log.LogAccessor;

/**
 * How a slot recovers from a failure its loop caught, by the failure's
 * {@link FailureCategory}: the transaction aborted (or the producer re-initialised or
 * replaced), a consumer the group refused or one denied an input topic replaced, and every
 * assigned partition rewound to its first uncommitted record, after a back-off. A failure that ends the slot is thrown as a
 * {@link SlotFailure}.
 */
final class SlotRecovery {

	private static final LogAccessor logger = new LogAccessor(SlotRecovery.class);

	private final SlotId id;

	private final SlotFailures failures;

	private final SlotTransaction transaction;

	private final SlotConsumers consumers;

	private final SlotProcessing processing;

	private final SlotWork work;

	private final RewindPoints rewindPoints;

	private final InputDeadline deadline;

	private final SlotMonitor monitor;

	private final WorkerListener listener;

	private final BackOff backOff;

	SlotRecovery(SlotId id, SlotFailures failures, SlotTransaction transaction, SlotConsumers consumers,
			SlotProcessing processing, SlotWork work, RewindPoints rewindPoints, InputDeadline deadline,
			SlotMonitor monitor, WorkerListener listener, BackOff backOff) {
		this.id = id;
		this.failures = failures;
		this.transaction = transaction;
		this.consumers = consumers;
		this.processing = processing;
		this.work = work;
		this.rewindPoints = rewindPoints;
		this.deadline = deadline;
		this.monitor = monitor;
		this.listener = listener;
		this.backOff = backOff;
	}

	/**
	 * Recover from a failure of the slot's loop, then back off.
	 * @param failure the failure
	 * @throws SlotFailure when the failure ends the slot
	 */
	void recover(Exception failure) {
		FailureCategory category = this.failures.categorize(failure);
		// The root cause first: Kafka's clients wrap many errors in a generic error state.
		String cause = FailureClassifier.describe(failure);
		this.monitor.error(category + " after " + cause);
		this.listener.recovered(this.id.worker(), this.id.index(), category);
		logger.warn(() -> this.id + " recovering (" + category + ") from " + cause);
		this.monitor.failed();
		switch (category) {
			case FENCED -> this.transaction.fenced(failure);
			case FATAL -> {
				if (this.consumers.deniedAnInput(failure)) {
					// The producer is not at fault. A consumer told it may not read an input topic
					// keeps that answer until its metadata expires (metadata.max.age.ms, 5 min by
					// default): a new one asks again.
					this.transaction.abort();
					replaceDeniedConsumer();
				}
				else {
					this.transaction.replaceProducer();
				}
			}
			case REJOIN -> {
				this.transaction.abort();
				// A consumer refused again and again never polls: the input deadline counts here.
				this.deadline.check();
				replaceRefusedConsumer();
			}
			default -> this.transaction.abort();
		}
		rewind();
		this.backOff.await();
	}

	/**
	 * Seek every assigned partition back to its first uncommitted record. After a commit
	 * whose outcome is unknown (called, then given up: a successor producer may have
	 * completed it), the group's committed offsets are read from the broker first.
	 */
	void rewind() {
		// Whatever happens next (even a stop), nothing pending may join a transaction now.
		this.processing.discard();
		boolean fromBroker = this.transaction.takeUnknownOutcome();
		// Until the slot is asked to stop: an interrupted back-off only stops waiting.
		while (!this.backOff.isStopRequested()) {
			try {
				if (fromBroker) {
					this.rewindPoints.reload(this.consumers.current());
				}
				rewindToPoints();
				return;
			}
			catch (RuntimeException ex) {
				this.monitor.error("Rewind failed, retrying: " + ex);
				this.backOff.await();
			}
		}
	}

	/**
	 * Seek every assigned partition back to its rewind point, dropping every record in
	 * flight: their outputs were not sent, or were aborted.
	 */
	void rewindToPoints() {
		this.processing.discard();
		this.work.transactionEnded();
		this.rewindPoints.rewind(this.consumers.current());
	}

	/**
	 * Replace a consumer whose membership the group refused (it holds no partitions): the
	 * new one joins after the back-off.
	 */
	private void replaceRefusedConsumer() {
		if (!this.backOff.isStopRequested()) {
			this.processing.discard();
			replacedConsumer(this.consumers.replaceRefused());
		}
	}

	/**
	 * Replace a consumer denied an input topic: the new one asks the cluster again after the
	 * back-off.
	 */
	private void replaceDeniedConsumer() {
		if (!this.backOff.isStopRequested()) {
			this.processing.discard();
			replacedConsumer(this.consumers.replaceDenied());
		}
	}

	/**
	 * Account for a replacement the caller just attempted, having discarded the pending
	 * records first: the old consumer's partitions are revoked as it closes, and nothing of
	 * the aborted transaction may be committed then.
	 */
	private void replacedConsumer(boolean replaced) {
		if (!replaced) {
			this.monitor.error("A new consumer could not be created");
			return;
		}
		this.rewindPoints.revoked(Set.copyOf(this.rewindPoints.points().keySet()));
		this.monitor.committedOffsets(this.rewindPoints.points());
	}

}
