package dev.lockstep.worker.slot;

import java.time.Duration;
import java.util.Collection;

import dev.lockstep.worker.FailureClassifier;
import dev.lockstep.worker.OffsetReset;
import dev.lockstep.worker.RecoveryPolicy;
import dev.lockstep.worker.SlotState.BlockedRecord;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.WorkerStatus;
import dev.lockstep.worker.invalid.InvalidInputHandler;
import dev.lockstep.worker.ordering.SlotProcessing;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

import org.springframework.core.log.LogAccessor;

/**
 * One slot's consume-transform-produce loop on its own thread: poll; decode, process,
 * encode and send each record inside the open transaction (which may span polls),
 * committing whenever the transaction is due. Records are processed by the
 * {@link SlotProcessing} the worker's ordering calls for (one at a time on this thread,
 * or at the same time on the slot's pool) and taken back in order per partition; the
 * slot thread alone sends and commits. The slot orchestrates; the transaction
 * ({@link SlotTransaction}), invalid input ({@link InvalidInputHandler}), recovery from a
 * failure ({@link SlotRecovery}), a record's retries ({@link SlotRetries}), rebalances
 * ({@link SlotRebalanceListener}, which calls back only through {@link SlotRevocation})
 * and the consumer ({@link SlotConsumers}) each own their part.
 */
public final class WorkerSlot implements Runnable, SlotRevocation {

	private static final LogAccessor logger = new LogAccessor(WorkerSlot.class);

	private final SlotId id;

	private final WorkerSettings settings;

	private final SlotMonitor monitor;

	private final BudgetClaims claims;

	private final BackOff backOff;

	private final SlotTransaction transaction;

	private final InvalidInputHandler invalidInput;

	private final SlotRecovery recovery;

	private final SlotCommit commit;

	private final SlotIntake intake;

	private final SlotRetries retries;

	private final SlotRebalanceListener rebalance;

	private final SlotPoller poller;

	private final SlotConsumers consumers;

	private final SlotWork work;

	private final SlotProcessing processing;

	private final SlotOffsetReset offsetReset;

	private volatile boolean pauseRequested;

	// A one-shot run's budget is used up: commit, then stop.
	private boolean finishing;

	// A record blocked the slot: back off before retrying it.
	private boolean blockedRetryDue;

	/**
	 * Create a slot; {@link #run()} runs it on the calling thread.
	 * @param id the slot
	 * @param settings the worker's settings
	 * @param clients the slot's Kafka clients
	 * @param work the processor as the slot runs it
	 * @param classifier how failures are classified
	 * @param recoveryPolicy what the worker does per category of failure
	 * @param monitor the slot's observable state
	 * @param budget the records the worker processes before it stops, or {@code null}
	 * @param deadline the worker's input deadline
	 * @param listener told of the slot's events
	 */
	public WorkerSlot(SlotId id, WorkerSettings settings, SlotClients clients, SlotWork work,
			FailureClassifier classifier, RecoveryPolicy recoveryPolicy, SlotMonitor monitor, RecordBudget budget,
			InputDeadline deadline, WorkerListener listener) {
		this.id = id;
		this.settings = settings;
		SlotFailures failures = new SlotFailures(classifier, recoveryPolicy);
		RewindPoints rewindPoints = new RewindPoints();
		this.monitor = monitor;
		this.claims = new BudgetClaims(budget);
		this.backOff = new BackOff(settings.recovery());
		this.transaction = new SlotTransaction(id, clients, settings, failures, this.backOff, monitor, listener,
				this.claims);
		this.invalidInput = new InvalidInputHandler(id, settings.invalidInput(), monitor, listener);
		this.work = work;
		this.processing = SlotProcessing.of(id, settings, work, listener);
		this.consumers = new SlotConsumers(id, settings, clients, listener);
		this.recovery = new SlotRecovery(id, failures, this.transaction, this.consumers, this.processing, work,
				rewindPoints, deadline, monitor, listener, this.backOff);
		this.commit = new SlotCommit(this.transaction, this.consumers, work, rewindPoints, this.invalidInput,
				monitor, this.backOff);
		this.retries = new SlotRetries(id, settings.retry(), this.consumers, this.processing, rewindPoints, listener);
		this.intake = new SlotIntake(id, failures, this.transaction, this.commit, this.invalidInput, this.recovery,
				this.retries, this.claims);
		this.rebalance = new SlotRebalanceListener(id, this, this.transaction, this.recovery, this.processing,
				rewindPoints, this.retries, monitor, this.consumers, listener);
		this.poller = new SlotPoller(id, deadline, this.rebalance, rewindPoints, this.retries, monitor, listener,
				this.consumers);
		this.offsetReset = new SlotOffsetReset(id, this.consumers, this, this.processing, rewindPoints,
				this.retries, this.transaction, this.commit, listener);
		monitor.inFlight(this.processing::inFlight);
	}

	/**
	 * Ask the slot, from any thread, to pause (commit and stop fetching) or resume.
	 * @param pause whether to pause
	 */
	public void requestPause(boolean pause) {
		this.pauseRequested = pause;
	}

	/**
	 * Ask the slot, from any thread, to move its partitions' committed offsets.
	 * @param reset where to
	 */
	public void requestReset(OffsetReset reset) {
		this.offsetReset.request(reset);
	}

	/**
	 * Ask the slot, from any thread, to skip the record it is blocked at, if it still is.
	 * @return the record that will be skipped, or {@code null} when the slot is not blocked
	 */
	public BlockedRecord requestSkip() {
		return this.invalidInput.requestSkip();
	}

	/**
	 * Ask the slot, from any thread, to stop after its current poll.
	 */
	public void requestStop() {
		this.backOff.stop();
	}

	@Override
	public void run() {
		try {
			this.transaction.start();
			if (this.backOff.isStopRequested()) {
				return;
			}
			this.consumers.open(this.rebalance);
			this.poller.start();
			this.monitor.status(WorkerStatus.RUNNING);
			while (!this.backOff.isStopRequested() && !(this.finishing && !this.transaction.isOpen())) {
				try {
					round();
				}
				catch (SlotFailure ex) {
					throw ex;
				}
				catch (Exception ex) {
					this.recovery.recover(ex);
				}
			}
			if (this.backOff.isStopRequested()) {
				finishPending();
			}
			this.transaction.abort();
		}
		catch (SlotFailure ex) {
			this.monitor.error(ex.getMessage());
			this.monitor.status(ex.status());
			logger.error(() -> this.id + " " + ex.status() + ": " + ex.getMessage());
		}
		catch (RuntimeException ex) {
			this.monitor.error("Unexpected failure: " + ex);
			this.monitor.status(WorkerStatus.FAILED);
			logger.error(ex, () -> this.id + " failed");
		}
		finally {
			close();
		}
	}

	/**
	 * One round: poll unless enough records are pending (without waiting while some are
	 * being processed), wait for a completion if nothing new came, and take back in
	 * order what is done; commit when due.
	 */
	private void round() throws Exception {
		applyPause();
		this.offsetReset.apply();
		this.retries.resumeDue(this.poller.isPaused());
		if (!this.finishing && this.claims.isRunComplete()) {
			// Another slot committed the run's last record: this one has nothing left to do.
			this.finishing = true;
		}
		if (!this.finishing) {
			boolean polled = false;
			if (this.processing.acceptsMore()) {
				boolean pending = this.processing.hasPending();
				ConsumerRecords<byte[], byte[]> records = this.poller.poll(
						pending ? Duration.ZERO : this.settings.pollTimeout(), pending || this.transaction.isOpen());
				this.processing.add(records);
				polled = !records.isEmpty();
			}
			if (!polled && this.processing.hasPending()) {
				this.processing.awaitCompletion(this.settings.pollTimeout());
			}
			takeDone();
			if (this.blockedRetryDue) {
				// Here, not where the record blocked: that may be a rebalance callback.
				this.blockedRetryDue = false;
				this.backOff.await();
			}
		}
		commitIfDue();
	}

	/**
	 * Take back every record that is done, in order per partition, into the open
	 * transaction.
	 * @return {@code false} when taking back stopped early (a record blocked the slot, or
	 * a one-shot run is complete)
	 */
	private boolean takeDone() throws Exception {
		while (true) {
			// Checked before every record, so a slow poll cannot keep a transaction open
			// past its interval (and on to its timeout).
			if (this.transaction.isDue()) {
				this.commit.commit();
			}
			ProcessedRecord record = this.processing.takeDone();
			if (record == null) {
				return true;
			}
			if (!this.claims.claim()) {
				// One-shot run complete: what is left is never committed, nor taken back
				// should the budget grow again (an aborting slot gives its claims back).
				record.trace().end();
				this.finishing = true;
				this.processing.discard();
				return false;
			}
			if (!this.intake.accept(record)) {
				this.blockedRetryDue = true;
				return false;
			}
			if (this.claims.isExhausted()) {
				// The one-shot run's last record: commit it, then stop.
				this.finishing = true;
				return false;
			}
		}
	}

	/**
	 * Before partitions are revoked, and when the slot stops: wait (at most half the
	 * shutdown timeout) for their records in flight, taking back what is done. Those
	 * still running then are dropped, uncommitted: the partition's next owner processes
	 * them again.
	 * @param partitions the partitions whose records are waited for
	 */
	private void drain(Collection<TopicPartition> partitions) throws Exception {
		long deadline = System.nanoTime() + this.settings.shutdownTimeout().toNanos() / 2;
		while (this.processing.hasPending(partitions) && takeDone()) {
			long left = deadline - System.nanoTime();
			if (left <= 0 || !this.processing.hasPending(partitions)) {
				break;
			}
			this.processing.awaitCompletion(Duration.ofNanos(Math.min(left, this.settings.pollTimeout().toNanos())));
		}
	}

	@Override
	public void commitBeforeRevoke(Collection<TopicPartition> revoked) throws Exception {
		drain(revoked);
		this.commit.commitIfOpen();
	}

	private void finishPending() {
		try {
			commitBeforeRevoke(this.consumers.current().assignment());
		}
		catch (SlotFailure ex) {
			throw ex;
		}
		catch (Exception ex) {
			this.monitor.error("Commit at stop failed: " + ex);
			logger.warn(() -> this.id + " commit at stop failed, aborting: " + ex);
		}
	}

	private void commitIfDue() throws Exception {
		if (this.backOff.isStopRequested() || this.finishing || this.transaction.isDue()) {
			this.commit.commitIfOpen();
		}
	}

	private void applyPause() throws Exception {
		boolean pause = this.pauseRequested;
		if (pause != this.poller.isPaused()) {
			if (pause) {
				this.commit.commitIfOpen();
			}
			this.poller.pause(pause);
		}
	}

	private void close() {
		// Nothing pending is taken back from here on: not by the revocation when the
		// consumer closes either.
		this.processing.close();
		this.work.close();
		Duration timeout = this.settings.shutdownTimeout();
		this.consumers.closeOnStop(timeout);
		this.transaction.close(timeout);
		WorkerStatus status = this.monitor.status();
		if (status != WorkerStatus.FENCED && status != WorkerStatus.FAILED) {
			this.monitor.status(WorkerStatus.STOPPED);
		}
	}

}
