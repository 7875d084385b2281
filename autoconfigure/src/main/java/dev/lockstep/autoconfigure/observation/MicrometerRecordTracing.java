package dev.lockstep.autoconfigure.observation;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.lockstep.worker.RecordTrace;
import dev.lockstep.worker.RecordTracing;
import dev.lockstep.worker.WorkerObservations;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Traces records with Micrometer Tracing's {@link Tracer} and {@link Propagator}
 * (OpenTelemetry and Brave alike), deciding before anything is built:
 * <ul>
 * <li>a record whose W3C {@code traceparent} says "not sampled" gets no span: its outputs
 * carry its trace headers as they are (what a parent-based sampler, Spring Boot's
 * default, decides anyway);</li>
 * <li>a record without trace headers asks the tracer's sampler, once, for a root span;
 * one that is not sampled gets nothing;</li>
 * <li>other propagation (B3, say), or a sampler that is not parent-based, is read by the
 * propagator and decided by the tracer;</li>
 * <li>a sampled record gets one span, {@code process <topic>} of kind CONSUMER, its
 * attributes set once, its context written into each output.</li>
 * </ul>
 * With {@code correlateUnsampledLogs}, records that are not sampled still get the tracer's
 * (non-recording) span and its scope, so log lines carry their trace id.
 */
public final class MicrometerRecordTracing implements RecordTracing {

	static final String TRACEPARENT = "traceparent";

	private static final Propagator.Getter<ConsumerRecord<byte[], byte[]>> HEADERS = (record, key) -> {
		Header header = record.headers().lastHeader(key);
		return (header != null && header.value() != null) ? new String(header.value(), StandardCharsets.UTF_8)
				: null;
	};

	private static final Propagator.Setter<Headers> OUTPUT = (headers, key, value) -> headers.add(key,
			value.getBytes(StandardCharsets.UTF_8));

	private final Tracer tracer;

	private final Propagator propagator;

	private final String[] fields;

	private final boolean readTraceparent;

	private final boolean correlateUnsampledLogs;

	private final RecordTrace passThrough;

	private final Map<String, String> spanNames = new ConcurrentHashMap<>();

	/**
	 * Create the record tracing.
	 * @param tracer the tracer
	 * @param propagator the propagator of the tracer's context
	 * @param parentBased whether the tracer's sampler follows a remote parent's decision,
	 * as Spring Boot's default sampler does: then a {@code traceparent} is decided from its
	 * bytes
	 * @param correlateUnsampledLogs whether records that are not sampled get a scope too (their
	 * trace id in the logging context)
	 */
	public MicrometerRecordTracing(Tracer tracer, Propagator propagator, boolean parentBased,
			boolean correlateUnsampledLogs) {
		this.tracer = tracer;
		this.propagator = propagator;
		List<String> fields = List.copyOf(propagator.fields());
		this.fields = fields.toArray(String[]::new);
		this.readTraceparent = parentBased && fields.contains(TRACEPARENT);
		this.correlateUnsampledLogs = correlateUnsampledLogs;
		this.passThrough = RecordTrace.passThrough(fields);
	}

	@Override
	public RecordTrace start(ConsumerRecord<byte[], byte[]> record, String worker, String groupId) {
		Headers headers = record.headers();
		if (this.readTraceparent) {
			Header traceparent = headers.lastHeader(TRACEPARENT);
			int sampled = (traceparent != null) ? W3cTraceParent.sampled(traceparent.value())
					: W3cTraceParent.INVALID;
			if (sampled == W3cTraceParent.NOT_SAMPLED && !this.correlateUnsampledLogs) {
				return this.passThrough;
			}
			if (sampled != W3cTraceParent.INVALID) {
				return started(this.propagator.extract(record, HEADERS), record, worker, groupId, this.passThrough);
			}
		}
		if (!carriesContext(headers)) {
			return started(this.tracer.spanBuilder().setNoParent(), record, worker, groupId, RecordTrace.NONE);
		}
		return started(this.propagator.extract(record, HEADERS), record, worker, groupId, this.passThrough);
	}

	private boolean carriesContext(Headers headers) {
		for (String field : this.fields) {
			if (headers.lastHeader(field) != null) {
				return true;
			}
		}
		return false;
	}

	private RecordTrace started(Span.Builder builder, ConsumerRecord<byte[], byte[]> record, String worker,
			String groupId, RecordTrace unsampled) {
		Span span = builder.name(this.spanNames.computeIfAbsent(record.topic(), (topic) -> "process " + topic))
			.kind(Span.Kind.CONSUMER)
			.start();
		if (span.isNoop() && !this.correlateUnsampledLogs) {
			return unsampled;
		}
		if (!span.isNoop()) {
			span.tag("messaging.system", "kafka")
				.tag("messaging.operation.name", "process")
				.tag("messaging.destination.name", record.topic())
				.tag("messaging.consumer.group.name", groupId)
				.tag("messaging.destination.partition.id", Integer.toString(record.partition()))
				.tag("messaging.kafka.offset", Long.toString(record.offset()))
				.tag("lockstep.worker", worker);
		}
		return new SpanTrace(span);
	}

	/**
	 * A record's span: what the tracer or propagator throws is logged, never passed on.
	 */
	private final class SpanTrace implements RecordTrace {

		private final Span span;

		private final AtomicBoolean ended = new AtomicBoolean();

		SpanTrace(Span span) {
			this.span = span;
		}

		@Override
		public Scope openScope() {
			try {
				Tracer.SpanInScope scope = MicrometerRecordTracing.this.tracer.withSpan(this.span);
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
				// The input's own fields go, even those the span's context does not set again.
				for (String field : MicrometerRecordTracing.this.fields) {
					output.remove(field);
				}
				MicrometerRecordTracing.this.propagator.inject(this.span.context(), output, OUTPUT);
			}
			catch (RuntimeException ex) {
				WorkerObservations.logFailure("writing a record's trace context", ex);
			}
		}

		@Override
		public void error(Throwable failure) {
			try {
				this.span.error(failure);
			}
			catch (RuntimeException ex) {
				WorkerObservations.logFailure("recording a record's error", ex);
			}
		}

		@Override
		public void joined(String transactionalId, long sequence) {
			try {
				this.span.tag("lockstep.transaction.id", transactionalId)
					.tag("lockstep.transaction.sequence", Long.toString(sequence));
			}
			catch (RuntimeException ex) {
				WorkerObservations.logFailure("naming a record's transaction", ex);
			}
		}

		@Override
		public void end() {
			if (this.ended.compareAndSet(false, true)) {
				try {
					this.span.end();
				}
				catch (RuntimeException ex) {
					WorkerObservations.logFailure("ending a record's span", ex);
				}
			}
		}

	}

}
