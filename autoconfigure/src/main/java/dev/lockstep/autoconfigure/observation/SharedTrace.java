package dev.lockstep.autoconfigure.observation;

import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.worker.observation.RecordTrace;
import io.micrometer.tracing.Span;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * A transaction's new trace, shared by its records that arrived without trace headers
 * ({@link NewTraces#PER_TRANSACTION}): its span (none when not sampled) is the scope of
 * their processing, and its context (none for a span that is not sampled, a scope for the
 * logs only) is what their outputs carry. A failed record is an event of the span, not its
 * error.
 */
final class SharedTrace extends HeldTrace {

	private final MicrometerRecordTracing tracing;

	private final Span span;

	private final Header[] context;

	private final AtomicInteger records = new AtomicInteger();

	/**
	 * @param tracing the tracing that started the span
	 * @param span the span, or {@code null} when not sampled
	 * @param context the span's context as output headers, or {@code null} when not sampled
	 */
	SharedTrace(MicrometerRecordTracing tracing, Span span, Header[] context) {
		this.tracing = tracing;
		this.span = span;
		this.context = context;
	}

	// Not sampled: nothing to hold, its records traced by nothing.

	@Override
	RecordTrace first(ConsumerRecord<byte[], byte[]> first) {
		return (this.span != null) ? super.first(first) : RecordTrace.NONE;
	}

	@Override
	RecordTrace join(ConsumerRecord<byte[], byte[]> record) {
		return (this.span != null) ? super.join(record) : RecordTrace.NONE;
	}

	@Override
	void recordAdded(ConsumerRecord<byte[], byte[]> record) {
		this.records.incrementAndGet();
	}

	@Override
	void transactionNamed(String transactionalId, long sequence) {
		if (this.context != null) {
			MicrometerRecordTracing.tagTransaction(this.span, transactionalId, sequence);
		}
	}

	@Override
	void ended() {
		if (this.span == null) {
			return;
		}
		if (this.context != null) {
			this.span.tag(MicrometerRecordTracing.BATCH_MESSAGE_COUNT, Integer.toString(this.records.get()));
		}
		this.span.end();
	}

	@Override
	void abandon() {
		if (this.span != null) {
			this.span.abandon();
		}
	}

	@Override
	RecordTrace.Scope openScope() {
		return this.tracing.openScope(this.span);
	}

	@Override
	void inject(ConsumerRecord<byte[], byte[]> input, Headers output) {
		if (this.context == null) {
			return;
		}
		// The input has no trace headers: only the trace context is replaced, so baggage
		// the processor wrote onto the output stays.
		for (Header header : this.context) {
			output.remove(header.key());
		}
		for (Header header : this.context) {
			output.add(header);
		}
	}

	@Override
	void failed(Throwable failure) {
		if (this.context != null) {
			this.span.event(MicrometerRecordTracing.failedEvent(failure));
		}
	}

}
