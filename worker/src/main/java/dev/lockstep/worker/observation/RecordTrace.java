package dev.lockstep.worker.observation;

import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * One record's trace as the slot handles it: a scope opened while the record is processed
 * and while the slot logs about it, a trace context written into each of its outputs,
 * ended exactly once (when the record joined its transaction, was held back, or was
 * dropped by a rewind). Every method does nothing by default.
 *
 * <p>
 * Tracing never fails a record: what a trace throws is logged by the worker (the first
 * failure at WARN, the rest at DEBUG), and the record is processed as without it.
 */
public interface RecordTrace {

	/** Traces nothing and writes nothing into outputs. */
	RecordTrace NONE = new RecordTrace() {
	};

	/**
	 * Open the trace's scope on this thread (a tracing bridge puts the trace id into the
	 * logging context).
	 * @return the scope, to close on the same thread
	 */
	default Scope openScope() {
		return Scope.NONE;
	}

	/**
	 * Run something, such as a log statement about the record, in the trace's scope.
	 * @param action what to run
	 */
	default void inScope(Runnable action) {
		try (Scope scope = openScope()) {
			action.run();
		}
	}

	/**
	 * Write the record's trace context into one of its outputs' headers, in place of any
	 * the output carries.
	 * @param input the record as consumed
	 * @param output the output's headers
	 */
	default void inject(ConsumerRecord<byte[], byte[]> input, Headers output) {
	}

	/**
	 * The record's processing failed.
	 * @param failure what it failed with
	 */
	default void error(Throwable failure) {
	}

	/**
	 * The record joined a transaction: the trace names it.
	 * @param transactionalId the slot's transactional id
	 * @param sequence the transaction's sequence number
	 */
	default void joined(String transactionalId, long sequence) {
	}

	/** End the trace; calls after the first do nothing. */
	default void end() {
	}

	/**
	 * A trace for records that are not sampled: nothing is recorded, and each output gets
	 * the input's trace headers as they are (the W3C Trace Context allows a hop that does
	 * not trace to pass {@code traceparent} and {@code tracestate} on unmodified), so the
	 * decision travels on. Stateless: one instance serves every record.
	 * @param fields the trace headers to pass on, such as {@code traceparent} and
	 * {@code tracestate}
	 * @return the pass-through trace
	 */
	static RecordTrace passThrough(List<String> fields) {
		return new PassThroughTrace(fields);
	}

	/**
	 * A trace's scope on one thread; closing it never throws.
	 */
	interface Scope extends AutoCloseable {

		/** No scope. */
		Scope NONE = () -> {
		};

		@Override
		void close();

	}

}
