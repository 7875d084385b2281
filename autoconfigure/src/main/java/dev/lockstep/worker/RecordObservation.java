package dev.lockstep.worker;

import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.observation.Observation;
import org.apache.kafka.common.header.Headers;

/**
 * One record's {@code lockstep.worker.process} observation as the slot handles it: its
 * scope opened while the record is processed and while the slot logs about it, its trace
 * context written into the record's outputs, stopped exactly once (when the record
 * joined its transaction, was held back, or was dropped by a rewind). A failing
 * observation handler or convention never fails the record: what it throws is logged.
 */
final class RecordObservation {

	/** For workers without observations: does nothing. */
	static final RecordObservation NONE = new RecordObservation(null, null, TraceContextPropagator.NONE);

	private static final Scope NO_SCOPE = () -> {
	};

	private final Observation observation;

	private final ProcessObservationContext context;

	private final TraceContextPropagator propagator;

	private final AtomicBoolean stopped = new AtomicBoolean();

	RecordObservation(Observation observation, ProcessObservationContext context, TraceContextPropagator propagator) {
		this.observation = observation;
		this.context = context;
		this.propagator = propagator;
	}

	/**
	 * Open the observation's scope on this thread.
	 * @return the scope, to close on the same thread
	 */
	Scope openScope() {
		if (this.observation == null) {
			return NO_SCOPE;
		}
		Observation.Scope[] opened = { Observation.Scope.NOOP };
		WorkerObservations.guarded("opening a record's scope", () -> opened[0] = this.observation.openScope());
		return () -> WorkerObservations.guarded("closing a record's scope", opened[0]::close);
	}

	/**
	 * Run something, such as a log statement about the record, in the observation's scope
	 * (a tracing bridge puts the record's trace id into the logging context).
	 * @param action what to run
	 */
	void inScope(Runnable action) {
		try (Scope scope = openScope()) {
			action.run();
		}
	}

	/**
	 * Write the record's trace context into one of its outputs' headers.
	 * @param headers the output's headers
	 */
	void inject(Headers headers) {
		if (this.observation != null) {
			WorkerObservations.guarded("writing a record's trace context",
					() -> this.propagator.inject(this.context, headers));
		}
	}

	void error(Throwable failure) {
		if (this.observation != null) {
			WorkerObservations.guarded("recording a record's error", () -> this.observation.error(failure));
		}
	}

	/**
	 * The record joined a transaction: the observation names it.
	 * @param transactionalId the slot's transactional id
	 * @param sequence the transaction's sequence number
	 */
	void joined(String transactionalId, long sequence) {
		if (this.context != null) {
			this.context.joined(transactionalId, sequence);
		}
	}

	void stop() {
		if (this.observation != null && this.stopped.compareAndSet(false, true)) {
			WorkerObservations.guarded("stopping a record's observation", this.observation::stop);
		}
	}

	/**
	 * A record's scope on one thread; closing it never throws.
	 */
	interface Scope extends AutoCloseable {

		@Override
		void close();

	}

}
