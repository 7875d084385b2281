package dev.lockstep.worker.observation;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A slot's tracing as the slot calls it: what the tracing throws is logged, never passed
 * on, and each record's trace is guarded in turn.
 */
final class GuardedSlotTracing implements SlotTracing {

	private final SlotTracing tracing;

	GuardedSlotTracing(SlotTracing tracing) {
		this.tracing = tracing;
	}

	@Override
	public RecordTrace start(ConsumerRecord<byte[], byte[]> record) {
		RecordTrace trace;
		try {
			trace = this.tracing.start(record);
		}
		catch (RuntimeException ex) {
			WorkerObservations.logFailure("starting a record's trace", ex);
			return RecordTrace.NONE;
		}
		// The built-in traces of records that are not traced cannot fail: no wrapper for them.
		return (trace == RecordTrace.NONE || trace instanceof PassThroughTrace) ? trace : new GuardedRecordTrace(trace);
	}

	@Override
	public void transactionEnded() {
		WorkerObservations.guarded("ending a transaction's traces", this.tracing::transactionEnded);
	}

	@Override
	public void close() {
		WorkerObservations.guarded("closing a slot's tracing", this.tracing::close);
	}

}
