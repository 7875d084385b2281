package dev.lockstep.worker;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

import dev.lockstep.worker.SlotState.BlockedRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import org.springframework.core.log.LogAccessor;

/**
 * One slot's consume-transform-produce loop on its own thread: poll; decode, process,
 * encode and send each record inside the open transaction (which may span polls),
 * committing whenever the transaction is due; act on every failure by its
 * {@link FailureCategory}. Records are processed by the {@link SlotProcessing} the
 * worker's ordering calls for (one at a time on this thread, or at the same time on the
 * slot's pool) and taken back in order per partition; the slot thread alone sends and
 * commits. The transaction, invalid input, rewind points and clients each have a class
 * of their own.
 */
final class WorkerSlot implements Runnable {

	private static final LogAccessor logger = new LogAccessor(WorkerSlot.class);

	private final SlotId id;

	private final WorkerSettings settings;

	private final SlotFailures failures;

	private final SlotMonitor monitor;

	private final BudgetClaims claims;

	private final WorkerListener listener;

	private final BackOff backOff;

	private final SlotTransaction transaction;

	private final InvalidInputHandler invalidInput;

	private final RewindPoints rewindPoints = new RewindPoints();

	private final SlotRebalanceListener rebalance;

	private final SlotPoller poller;

	private final SlotConsumers consumers;

	private final SlotWork work;

	private final SlotProcessing processing;

	private volatile boolean stopRequested;

	private volatile boolean pauseRequested;

	// A one-shot run's budget is used up: commit, then stop.
	private boolean finishing;

	// A record blocked the slot: back off before retrying it.
	private boolean blockedRetryDue;

	private Consumer<byte[], byte[]> consumer;

	WorkerSlot(SlotId id, WorkerSettings settings, SlotClients clients, SlotWork work,
			FailureClassifier classifier, RecoveryPolicy recoveryPolicy, SlotMonitor monitor, RecordBudget budget,
			InputDeadline deadline, WorkerListener listener) {
		this.id = id;
		this.settings = settings;
		this.failures = new SlotFailures(classifier, recoveryPolicy);
		this.monitor = monitor;
		this.claims = new BudgetClaims(budget);
		this.listener = listener;
		this.backOff = new BackOff(settings.recovery());
		this.transaction = new SlotTransaction(id, clients, settings, this.failures, this.backOff, monitor, listener,
				this.claims);
		this.invalidInput = new InvalidInputHandler(id, settings.invalidInput(), monitor);
		this.work = work;
		this.processing = SlotProcessing.of(id, settings, work, listener);
		this.rebalance = new SlotRebalanceListener(id, this.transaction, this::commitBeforeRevoke, this::rewind,
				this.processing::discard, this.rewindPoints, monitor, () -> this.consumer);
		this.poller = new SlotPoller(id, deadline, this.rebalance, this.rewindPoints, monitor,
				listener);
		this.consumers = new SlotConsumers(id, settings, clients, this.rebalance, listener);
		monitor.inFlight(this.processing::inFlight);
	}

	void requestPause(boolean pause) {
		this.pauseRequested = pause;
	}

	BlockedRecord requestSkip() {
		return this.invalidInput.requestSkip();
	}

	void requestStop() {
		this.stopRequested = true;
		this.backOff.stop();
	}

	@Override
	public void run() {
		try {
			this.transaction.start();
			if (this.stopRequested) {
				return;
			}
			this.consumer = this.consumers.open();
			this.poller.start(this.consumer);
			this.monitor.status(WorkerStatus.RUNNING);
			while (!this.stopRequested && !(this.finishing && !this.transaction.isOpen())) {
				try {
					round();
				}
				catch (SlotFailure ex) {
					throw ex;
				}
				catch (Exception ex) {
					recover(ex);
				}
			}
			if (this.stopRequested) {
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
				commit();
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
			if (!accept(record)) {
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

	private void commitBeforeRevoke(Collection<TopicPartition> revoked) throws Exception {
		drain(revoked);
		if (this.transaction.isOpen()) {
			commit();
		}
	}

	private void finishPending() {
		try {
			commitBeforeRevoke(this.consumer.assignment());
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
		if (this.transaction.isOpen()
				&& (this.stopRequested || this.finishing || this.transaction.isDue())) {
			commit();
		}
	}

	private void applyPause() throws Exception {
		boolean pause = this.pauseRequested;
		if (pause != this.poller.isPaused()) {
			if (pause && this.transaction.isOpen()) {
				commit();
			}
			this.poller.pause(pause);
		}
	}

	/**
	 * Put a processed record into the open transaction: its outputs and its offset, or,
	 * when it failed as invalid input, what the invalid-input policy says.
	 * @return {@code false} when the record blocked the slot (the slot rewound to it)
	 * @throws Exception the failure, when it is not invalid input
	 */
	private boolean accept(ProcessedRecord record) throws Exception {
		boolean joined = false;
		try {
			joined = join(record);
			return joined;
		}
		finally {
			// Its trace ends here, naming the transaction it joined. (The transaction's
			// own observation began outside the record's scope: it is not the record's child.)
			if (joined && this.transaction.isOpen()) {
				record.trace().joined(this.id.transactionalId(), this.transaction.sequence());
			}
			record.trace().end();
		}
	}

	private boolean join(ProcessedRecord record) throws Exception {
		ConsumerRecord<byte[], byte[]> raw = record.raw();
		Exception failure = record.failure();
		if (failure != null) {
			if (this.failures.categorize(failure, record.processorFailed()) != FailureCategory.INVALID_INPUT) {
				throw failure;
			}
			return invalid(record);
		}
		OpenTransaction open = this.transaction.begin();
		this.transaction.send(record.outputs());
		open.processed(raw, record.tombstone());
		this.invalidInput.valid();
		if (this.monitor.status() == WorkerStatus.BLOCKED) {
			record.trace().inScope(() -> logger.info(() -> this.id + " unblocked at " + raw.topic() + "-"
					+ raw.partition() + "@" + raw.offset()));
			this.monitor.status(WorkerStatus.RUNNING);
		}
		return true;
	}

	private boolean invalid(ProcessedRecord record) throws Exception {
		if (this.invalidInput.invalid(record, this.transaction) == InvalidInputHandler.Outcome.HANDLED) {
			return true;
		}
		ConsumerRecord<byte[], byte[]> raw = record.raw();
		Exception reason = record.failure();
		// Block: commit what came before the record, then hold the slot at it.
		this.claims.unclaim();
		if (this.transaction.isEmpty()) {
			this.transaction.abort();
		}
		else {
			commit();
		}
		rewindToPoints();
		String where = raw.topic() + "-" + raw.partition() + "@" + raw.offset();
		String why = this.invalidInput.blockReason(reason);
		if (this.monitor.status() != WorkerStatus.BLOCKED) {
			record.trace().inScope(() -> logger.error(() -> this.id + " BLOCKED at " + where + ": " + why));
		}
		BlockedRecord blocked = new BlockedRecord(raw.topic(), raw.partition(), raw.offset(), why);
		this.monitor.blocked(blocked);
		this.listener.rejected(this.id.worker(), this.id.index(), blocked);
		this.blockedRetryDue = true;
		return false;
	}

	private void commit() throws Exception {
		Map<TopicPartition, OffsetAndMetadata> offsets = this.transaction.commit(this.consumer.groupMetadata());
		this.work.transactionEnded();
		this.rewindPoints.committed(offsets);
		this.invalidInput.committed(offsets);
		this.monitor.committedOffsets(this.rewindPoints.points());
		this.backOff.reset();
	}

	private void recover(Exception failure) {
		FailureCategory category = this.failures.categorize(failure);
		this.monitor.error(category + " after " + failure);
		this.listener.recovered(this.id.worker(), this.id.index(), category);
		logger.warn(() -> this.id + " recovering (" + category + ") from " + failure);
		this.monitor.failed();
		switch (category) {
			case FENCED -> this.transaction.fenced(failure);
			case FATAL -> this.transaction.replaceProducer();
			case REJOIN -> {
				this.transaction.abort();
				// A consumer refused again and again never polls: the input deadline counts here.
				this.poller.checkIdle();
				replaceConsumer();
			}
			default -> this.transaction.abort();
		}
		rewind();
		this.backOff.await();
	}

	/**
	 * Replace a consumer whose membership the group refused (it holds no partitions): the
	 * new one joins after the back-off.
	 */
	private void replaceConsumer() {
		if (this.stopRequested) {
			return;
		}
		Consumer<byte[], byte[]> replacement = this.consumers.replace(this.consumer);
		if (replacement == this.consumer) {
			this.monitor.error("A new consumer could not be created");
			return;
		}
		this.processing.discard();
		this.rewindPoints.revoked(Set.copyOf(this.rewindPoints.points().keySet()));
		this.monitor.committedOffsets(this.rewindPoints.points());
		this.consumer = replacement;
		this.poller.replace(replacement);
	}

	/**
	 * Seek every assigned partition back to its first uncommitted record. After a commit
	 * whose outcome is unknown (called, then given up: a successor producer may have
	 * completed it), the group's committed offsets are read from the broker first.
	 */
	private void rewind() {
		// Whatever happens next (even a stop), nothing pending may join a transaction now.
		this.processing.discard();
		boolean fromBroker = this.transaction.takeUnknownOutcome();
		while (!this.stopRequested) {
			try {
				if (fromBroker) {
					this.rewindPoints.reload(this.consumer);
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
	private void rewindToPoints() {
		this.processing.discard();
		this.work.transactionEnded();
		this.rewindPoints.rewind(this.consumer);
	}

	private void close() {
		// Nothing pending is taken back from here on: not by the revocation when the
		// consumer closes either.
		this.processing.close();
		this.work.close();
		Duration timeout = this.settings.shutdownTimeout();
		if (this.consumer != null) {
			this.consumers.closeOnStop(this.consumer, timeout);
		}
		this.transaction.close(timeout);
		WorkerStatus status = this.monitor.status();
		if (status != WorkerStatus.FENCED && status != WorkerStatus.FAILED) {
			this.monitor.status(WorkerStatus.STOPPED);
		}
	}

}
