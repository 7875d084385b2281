package dev.lockstep.worker.observation;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decides, for each consumed record, whether its processing is traced, and starts its
 * {@link RecordTrace}. Called once per record, before the record is decoded, on the
 * thread that processes it (the slot's, or a pool thread under ordering key or none): an
 * implementation decides from what is cheapest to read (the record's trace headers, the
 * tracer's sampler) and builds a span only for records that are sampled. Each slot asks
 * for its own {@link SlotTracing}, where records that arrive without a trace may share
 * one per transaction. The runtime knows no tracer; the auto-configuration supplies one
 * over Micrometer Tracing.
 */
@FunctionalInterface
public interface RecordTracing {

	/** Traces nothing. */
	RecordTracing NONE = (record, worker, groupId) -> RecordTrace.NONE;

	/**
	 * Start tracing one record's processing.
	 * @param record the record as consumed
	 * @param worker the worker's name
	 * @param groupId the worker's consumer group
	 * @return the record's trace: {@link RecordTrace#NONE}, a shared pass-through for
	 * records that are not sampled, or a started span
	 */
	RecordTrace start(ConsumerRecord<byte[], byte[]> record, String worker, String groupId);

	/**
	 * Return the tracing of one slot's records; by default each record is started on its
	 * own by {@link #start}.
	 * @param worker the worker's name
	 * @param groupId the worker's consumer group
	 * @return the slot's tracing
	 */
	default SlotTracing slot(String worker, String groupId) {
		return (record) -> start(record, worker, groupId);
	}

}
