package dev.lockstep.worker;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.function.IntSupplier;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;

/**
 * Hears what a worker's slots do, for metrics and logs; the slot loop does not know who
 * listens. Called on the slot's thread (except {@link #recordWaited} and
 * {@link #recordProcessed}, called on pool threads too): implementations must be quick
 * and must not throw.
 */
public interface WorkerListener {

	/** A listener that hears nothing. */
	WorkerListener NONE = new WorkerListener() {
	};

	/**
	 * A worker was created, before any of its slots runs: the moment to register what a
	 * listener publishes, so that it exists (at zero) before the first event.
	 * @param worker the worker's name
	 */
	default void workerCreated(String worker) {
	}

	/**
	 * A slot created its consumer.
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param consumer the consumer
	 */
	default void consumerCreated(String worker, int slot, Consumer<?, ?> consumer) {
	}

	/**
	 * A slot is about to close its consumer.
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param consumer the consumer
	 */
	default void consumerClosing(String worker, int slot, Consumer<?, ?> consumer) {
	}

	/**
	 * A slot created a transactional producer (at start or after replacing one).
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param producer the producer
	 */
	default void producerCreated(String worker, int slot, Producer<?, ?> producer) {
	}

	/**
	 * A slot is about to close a producer.
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param producer the producer
	 */
	default void producerClosing(String worker, int slot, Producer<?, ?> producer) {
	}

	/**
	 * A poll returned, with or without records.
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param records how many records it returned
	 * @param lag the records behind the end of each assigned partition (read_committed)
	 */
	default void polled(String worker, int slot, int records, Map<TopicPartition, Long> lag) {
	}

	/**
	 * The slot no longer owns these partitions (revoked in a rebalance, lost, or given up
	 * as its consumer closes): what it reported of them, such as their lag, is another
	 * slot's or instance's to report now. May be called more than once for a partition (a
	 * close reports what Kafka's rebalance callback may have reported already).
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param partitions the partitions
	 */
	default void partitionsRevoked(String worker, int slot, Collection<TopicPartition> partitions) {
	}

	/**
	 * A slot that processes records at the same time (ordering KEY or NONE) was created.
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param inFlight its records in flight, readable from any thread
	 */
	default void concurrentSlotCreated(String worker, int slot, IntSupplier inFlight) {
	}

	/**
	 * A record handed to a slot's pool (ordering KEY or NONE) starts processing. Called on
	 * the pool thread, so possibly from many threads at once.
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param waitedNanos from its hand-over to the start of its processing: behind an
	 * earlier record of its key, or for a free thread
	 */
	default void recordWaited(String worker, int slot, long waitedNanos) {
	}

	/**
	 * A record under ordering KEY or NONE is processed. Called on the thread that processed
	 * it (a pool thread, or the slot's for a processor cheaper than a hand-off), so
	 * possibly from many threads at once; a record replayed after an abort is reported
	 * again.
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param processingNanos its decoding, processing and encoding (for an asynchronous
	 * processor, until its stage completed)
	 */
	default void recordProcessed(String worker, int slot, long processingNanos) {
	}

	/**
	 * A transaction committed.
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param outcome what it committed and how long it took
	 */
	default void committed(String worker, int slot, CommitOutcome outcome) {
	}

	/**
	 * A transaction was aborted; its input will be replayed.
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param records the input records it held
	 */
	default void aborted(String worker, int slot, int records) {
	}

	/**
	 * A failure was recovered from (or stopped the slot, for a FENCED takeover).
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param category the failure's category, which says what the slot did
	 */
	default void recovered(String worker, int slot, FailureCategory category) {
	}

	/**
	 * An invalid record held the slot (block policy).
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param record the record's coordinates and the reason
	 */
	default void rejected(String worker, int slot, SlotState.BlockedRecord record) {
	}

	/**
	 * A record's processor failed with attempts of its retry budget left: its partition
	 * waits for the next attempt.
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param failedAttempts the record's failed attempts so far
	 */
	default void recordRetried(String worker, int slot, int failedAttempts) {
	}

	/**
	 * A record's retry budget is spent.
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param outcome what becomes of it: quarantined (unless the quarantine guard blocks
	 * instead) or blocked at
	 */
	default void retriesExhausted(String worker, int slot, WorkerSettings.InvalidInputPolicy.Mode outcome) {
	}

	/**
	 * A redrive of the worker's quarantine topic committed one of its transactions.
	 * @param worker the worker's name
	 * @param result what the transaction sent back and what it left
	 */
	default void redriven(String worker, RedriveResult result) {
	}

	/**
	 * An operator's offset reset moved partitions this slot owns, and was committed.
	 * @param worker the worker's name
	 * @param slot the slot index
	 * @param reset the reset, with who asked
	 * @param moved each partition's next offset after the move
	 */
	default void offsetsReset(String worker, int slot, OffsetReset reset, Map<TopicPartition, Long> moved) {
	}

	/**
	 * What one committed transaction held.
	 *
	 * @param processed input records processed by the processor
	 * @param tombstones input tombstones among them
	 * @param quarantined input records sent to the quarantine topic
	 * @param requarantined those among them a redrive had sent back
	 * @param outputs records written to output topics
	 * @param transactionDuration from begin to the end of the commit
	 * @param commitDuration of sending offsets and committing
	 */
	record CommitOutcome(int processed, int tombstones, int quarantined, int requarantined, int outputs,
			Duration transactionDuration, Duration commitDuration) {

	}

}
