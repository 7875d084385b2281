package dev.lockstep.worker.observation;

import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * A record's trace as the slot calls it: what the trace throws is logged, never passed
 * on, and it ends once, whichever thread ends it first.
 */
final class GuardedRecordTrace implements RecordTrace {

	private final RecordTrace trace;

	private final AtomicBoolean ended = new AtomicBoolean();

	GuardedRecordTrace(RecordTrace trace) {
		this.trace = trace;
	}

	@Override
	public Scope openScope() {
		try {
			Scope scope = this.trace.openScope();
			return () -> {
				try {
					scope.close();
				}
				catch (RuntimeException ex) {
					WorkerObservations.logFailure("closing a record's scope", ex);
				}
			};
		}
		catch (RuntimeException ex) {
			WorkerObservations.logFailure("opening a record's scope", ex);
			return Scope.NONE;
		}
	}

	@Override
	public void inject(ConsumerRecord<byte[], byte[]> input, Headers output) {
		try {
			this.trace.inject(input, output);
		}
		catch (RuntimeException ex) {
			WorkerObservations.logFailure("writing a record's trace context", ex);
		}
	}

	@Override
	public void error(Throwable failure) {
		try {
			this.trace.error(failure);
		}
		catch (RuntimeException ex) {
			WorkerObservations.logFailure("recording a record's error", ex);
		}
	}

	@Override
	public void joined(String transactionalId, long sequence) {
		try {
			this.trace.joined(transactionalId, sequence);
		}
		catch (RuntimeException ex) {
			WorkerObservations.logFailure("naming a record's transaction", ex);
		}
	}

	@Override
	public void end() {
		if (this.ended.compareAndSet(false, true)) {
			try {
				this.trace.end();
			}
			catch (RuntimeException ex) {
				WorkerObservations.logFailure("ending a record's trace", ex);
			}
		}
	}

}
