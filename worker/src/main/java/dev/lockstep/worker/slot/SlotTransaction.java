package dev.lockstep.worker.slot;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.lockstep.worker.FailureCategory;
import dev.lockstep.worker.FailureClassifier;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.WorkerStatus;
import dev.lockstep.worker.observation.TransactionObservationContext;
import dev.lockstep.worker.observation.WorkerObservations;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

import org.springframework.core.log.LogAccessor;

/**
 * A slot's transactional producer and its open transaction: begin, send, commit with
 * retries, abort, and replacing the producer; after a fence, re-initialising it or
 * stopping the slot, as the {@link FenceEvidence} says.
 */
public final class SlotTransaction {

	private static final LogAccessor logger = new LogAccessor(SlotTransaction.class);

	private final SlotId id;

	private final SlotProducers producers;

	private final WorkerSettings.TransactionSizing sizing;

	private final SlotFailures failures;

	private final BackOff backOff;

	private final SlotMonitor monitor;

	private final WorkerListener listener;

	private final BudgetClaims claims;

	private final Duration maxBlock;

	private final WorkerObservations observations;

	// The last transaction's sequence number: each begun transaction gets the next.
	private long sequence;

	private Producer<byte[], byte[]> producer;

	private OpenTransaction open;

	private final FenceEvidence fences;

	// commitTransaction was called and did not succeed: it may yet complete (a successor
	// producer's initialisation finishes a commit the coordinator received).
	private boolean outcomeUnknown;

	SlotTransaction(SlotId id, SlotClients clients, WorkerSettings settings, SlotFailures failures, BackOff backOff,
			SlotMonitor monitor, WorkerListener listener, BudgetClaims claims) {
		this.maxBlock = settings.producerMaxBlock();
		this.observations = settings.observations();
		this.id = id;
		this.producers = new SlotProducers(id, clients, failures, backOff, monitor, listener);
		this.sizing = settings.transaction();
		this.failures = failures;
		this.backOff = backOff;
		this.monitor = monitor;
		this.listener = listener;
		this.claims = claims;
		this.fences = new FenceEvidence(this.sizing.timeout());
	}

	/**
	 * Start the slot's producer: see {@link SlotProducers#start()}.
	 * @throws SlotFailure FAILED for a failure retrying cannot change
	 */
	void start() {
		this.producer = this.producers.start();
		this.fences.settled();
	}

	/**
	 * Return the open transaction, beginning one if none is open.
	 * @return the open transaction
	 */
	OpenTransaction begin() {
		if (this.open == null) {
			this.producer.beginTransaction();
			this.sequence++;
			this.open = new OpenTransaction(this.observations.transaction(this.id.worker(), this.id.transactionalId(),
					this.sequence));
			this.monitor.transactionOpen(true);
		}
		return this.open;
	}

	/**
	 * Return the open transaction's sequence number: with the transactional id it names
	 * the transaction in observations.
	 * @return the sequence number
	 */
	long sequence() {
		return this.sequence;
	}

	void send(List<ProducerRecord<byte[], byte[]>> records) {
		OpenTransaction transaction = begin();
		for (ProducerRecord<byte[], byte[]> record : records) {
			this.producer.send(record, transaction);
			transaction.output();
		}
	}

	/**
	 * Send a record in the open transaction, beginning one if none is open: not counted
	 * as an output (a quarantined record).
	 * @param record the record to send
	 */
	public void send(ProducerRecord<byte[], byte[]> record) {
		this.producer.send(record, begin());
	}

	/**
	 * Count an input the open transaction moved to quarantine or skipped, beginning one if
	 * none is open: processed, so its offset commits with the transaction.
	 * @param record the input
	 */
	public void quarantined(ConsumerRecord<?, ?> record) {
		begin().quarantined(record);
	}

	/**
	 * Open a transaction that commits offsets an operator moved partitions to.
	 * @param offsets the next offset of each partition
	 */
	void moveOffsets(Map<TopicPartition, Long> offsets) {
		OpenTransaction transaction = begin();
		offsets.forEach(transaction::movedTo);
	}

	boolean isOpen() {
		return this.open != null;
	}

	boolean isEmpty() {
		return this.open == null || this.open.isEmpty();
	}

	/**
	 * Return whether the open transaction should be committed now: by its record count
	 * or its age.
	 * @return whether it is due
	 */
	boolean isDue() {
		return this.open != null && this.open.isDue(this.sizing);
	}

	/**
	 * Commit the open transaction with its input offsets. The offsets join the
	 * transaction while its sends are still in flight; the commit then waits for every
	 * send and fails if any of them failed, so the offsets never move without the
	 * outputs. A timed-out call is retried as the same call, never replaced by a new
	 * transaction: sending the offsets only while the retry cannot outlive the transaction
	 * timeout (then the transaction is aborted instead), the commit itself until it
	 * succeeds or fails for good, since the coordinator may already be completing it.
	 * @param group the consumer's group metadata, which fences a zombie consumer
	 * @return the offsets committed
	 * @throws Exception when the transaction cannot commit
	 */
	Map<TopicPartition, OffsetAndMetadata> commit(ConsumerGroupMetadata group) throws Exception {
		OpenTransaction committing = this.open;
		long commitStarted = System.nanoTime();
		Map<TopicPartition, OffsetAndMetadata> offsets = committing.offsets();
		try {
			retrying("sending offsets", () -> this.producer.sendOffsetsToTransaction(offsets, group), true);
			this.outcomeUnknown = true;
			retrying("commit", this.producer::commitTransaction, false);
		}
		catch (KafkaException ex) {
			// The producer reports a failed send as its own error state: name the send's failure.
			committing.throwFailedDelivery();
			throw ex;
		}
		this.outcomeUnknown = false;
		this.fences.settled();
		this.claims.committed();
		committing.ended(TransactionObservationContext.Result.COMMITTED);
		this.open = null;
		this.monitor.transactionOpen(false);
		this.monitor.committed(committing.records());
		this.listener.committed(this.id.worker(), this.id.index(), committing.outcome(commitStarted));
		return offsets;
	}

	/**
	 * Return whether the last transaction given up may have committed after all (its
	 * commit was called and failed), and forget it: the slot then rewinds to the offsets
	 * the group has committed, not to the points it keeps.
	 * @return whether the outcome was unknown
	 */
	boolean takeUnknownOutcome() {
		boolean unknown = this.outcomeUnknown;
		this.outcomeUnknown = false;
		return unknown;
	}

	/**
	 * Abort the open transaction, if any; its input records will be replayed. A producer
	 * that cannot abort is replaced: initialising its successor aborts the transaction.
	 * @throws SlotFailure FENCED when another instance holds the transactional id
	 */
	void abort() {
		if (this.open == null) {
			return;
		}
		OpenTransaction aborting = this.open;
		release();
		try {
			retrying("abort", this.producer::abortTransaction, false);
			this.fences.settled();
		}
		catch (RuntimeException ex) {
			if (this.failures.categorize(ex) == FailureCategory.FENCED) {
				reinitialiseOrStop(ex, aborting);
				return;
			}
			this.monitor.error("Abort failed, replacing the producer: " + FailureClassifier.describe(ex));
			replaceProducer();
		}
	}

	/**
	 * Act on a fence: re-initialise the producer when the {@link FenceEvidence} explains
	 * it, as often as it happens; otherwise another live instance took over, and the slot
	 * stops.
	 * @param failure the fence
	 * @throws SlotFailure FENCED for a takeover
	 */
	void fenced(Throwable failure) {
		reinitialiseOrStop(failure, this.open);
	}

	private void reinitialiseOrStop(Throwable fence, OpenTransaction transaction) {
		String cause = this.fences.explain(fence, transaction);
		if (cause == null) {
			throw takeover(fence);
		}
		logger.warn(() -> this.id + ": producer fenced (" + cause + ": " + FailureClassifier.describe(fence)
				+ "); re-initialising it");
		this.monitor.error("Producer fenced (" + cause + "), re-initialising it");
		replaceProducer();
	}

	/**
	 * Close the producer and continue with a new one of the same transactional id; the
	 * open transaction, if any, is given up (the new producer's initialisation aborts it).
	 */
	void replaceProducer() {
		release();
		close(Duration.ZERO);
		start();
	}

	private SlotFailure takeover(Throwable failure) {
		release();
		return new SlotFailure(WorkerStatus.FENCED, "another instance with transactional id "
				+ this.id.transactionalId() + " took over (" + FailureClassifier.describe(failure) + ")");
	}

	private void release() {
		OpenTransaction released = this.open;
		this.open = null;
		this.monitor.transactionOpen(false);
		this.claims.released();
		if (released != null) {
			released.ended(givenUpResult());
			this.listener.aborted(this.id.worker(), this.id.index(), released.records());
		}
	}

	/**
	 * Run a transaction call, repeating it after a back-off while it times out and the
	 * slot is not stopping: kafka-clients allows retrying the same call, which then
	 * completes the pending request.
	 * @param capped whether to give up when the back-off and the next blocking call could
	 * outlive the transaction timeout
	 */
	private void retrying(String operation, Runnable call, boolean capped) {
		while (true) {
			try {
				call.run();
				return;
			}
			catch (RuntimeException ex) {
				FailureCategory category = this.failures.categorize(ex);
				if (category != FailureCategory.RETRIABLE || this.backOff.isStopped()
						|| (capped && outlastsTimeout(this.backOff.next().plus(this.maxBlock)))) {
					throw ex;
				}
				this.fences.retried();
				this.monitor.error(operation + " timed out, retrying: " + ex.getMessage());
				logger.warn(() -> this.id + " " + operation + " timed out, retrying: " + ex);
				this.backOff.await();
			}
		}
	}

	private boolean outlastsTimeout(Duration wait) {
		return this.open != null && this.open.age().plus(wait).compareTo(this.sizing.timeout()) >= 0;
	}

	private TransactionObservationContext.Result givenUpResult() {
		return this.outcomeUnknown ? TransactionObservationContext.Result.UNKNOWN
				: TransactionObservationContext.Result.ABORTED;
	}

	void close(Duration timeout) {
		if (this.open != null) {
			// The slot ends with a transaction open (it failed): closing the producer leaves
			// the transaction to be aborted.
			this.open.ended(givenUpResult());
			this.open = null;
		}
		if (this.producer != null) {
			this.producers.close(this.producer, timeout);
			this.producer = null;
		}
	}

}
