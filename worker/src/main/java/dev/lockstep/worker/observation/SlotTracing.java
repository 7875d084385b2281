package dev.lockstep.worker.observation;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The tracing of one worker slot's records, from {@link RecordTracing#slot}. Records
 * that arrive without a trace may share one per transaction: the slot says when its
 * transaction ended, and the records that start after that belong to the next one.
 * Records start on the slot's thread or on its pool's (ordering key or none);
 * {@link #transactionEnded()} and {@link #close()} are called on the slot's thread.
 */
@FunctionalInterface
public interface SlotTracing {

	/** Traces nothing. */
	SlotTracing NONE = (record) -> RecordTrace.NONE;

	/**
	 * Start tracing one record's processing.
	 * @param record the record as consumed
	 * @return the record's trace: {@link RecordTrace#NONE}, a shared pass-through for
	 * records that are not sampled, or a started trace
	 */
	RecordTrace start(ConsumerRecord<byte[], byte[]> record);

	/**
	 * The slot's transaction committed, or was given up and its records dropped: records
	 * that start from now on belong to the next transaction. Does nothing by default.
	 */
	default void transactionEnded() {
	}

	/**
	 * The slot stopped: no record starts from now on, and what was traced ends once its
	 * records have. By default, as {@link #transactionEnded()}.
	 */
	default void close() {
		transactionEnded();
	}

}
