package dev.lockstep.autoconfigure.observation;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.lockstep.worker.observation.RecordTrace;
import dev.lockstep.worker.observation.RecordTracing;
import dev.lockstep.worker.observation.SlotTracing;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Traces records with Micrometer Tracing's {@link Tracer} and {@link Propagator}
 * (OpenTelemetry and Brave alike), deciding before anything is built:
 * <ul>
 * <li>a record whose W3C {@code traceparent} says "not sampled" gets no span: its outputs
 * carry its trace headers as they are (what a parent-based sampler, Spring Boot's
 * default, decides anyway);</li>
 * <li>records without trace headers share one new trace per transaction of their slot
 * ({@link NewTraces#PER_TRANSACTION}, the default); with
 * {@link NewTraces#PER_RECORD} each asks the tracer's sampler for a root span of its own.
 * Records that are not sampled get nothing;</li>
 * <li>other propagation (B3, say), or a sampler that is not parent-based, is read by the
 * propagator and decided by the tracer; a record carrying none of the propagator's
 * {@linkplain Propagator#fields() fields} counts as one without context;</li>
 * <li>a sampled record gets one span, {@code process <topic>} of kind CONSUMER, its
 * attributes set once, its context written into each output; or, for records in sampled
 * W3C traces with {@link SampledParents#LINK}, a link from its transaction's one span
 * ({@link LinkedSpan}), its outputs carrying its trace headers as they are.</li>
 * </ul>
 * With {@code correlateUnsampledLogs}, records that are not sampled still get the tracer's
 * (non-recording) span and its scope, so log lines carry their trace id; their outputs
 * carry what they would without it.
 */
public final class MicrometerRecordTracing implements RecordTracing {

	static final String BATCH_MESSAGE_COUNT = "messaging.batch.message_count";

	private static final Propagator.Getter<ConsumerRecord<byte[], byte[]>> HEADER_GETTER = (record, key) -> {
		Header header = record.headers().lastHeader(key);
		return (header != null && header.value() != null) ? new String(header.value(), StandardCharsets.UTF_8)
				: null;
	};

	private static final Propagator.Setter<Headers> HEADER_SETTER = (headers, key, value) -> headers.add(key,
			value.getBytes(StandardCharsets.UTF_8));

	private final Tracer tracer;

	private final Propagator propagator;

	private final String[] fields;

	private final boolean readTraceparent;

	private final boolean correlateUnsampledLogs;

	private final NewTraces newTraces;

	private final boolean linkSampledParents;

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
	 * @param newTraces what a new trace is started for: each record without trace headers,
	 * or the records without trace headers of one transaction
	 * @param sampledParents what a record in a sampled W3C trace gets when the sampler is
	 * parent-based: a span of its own, or a link from its transaction's span (other
	 * propagation, or another sampler, gets a span per record)
	 */
	public MicrometerRecordTracing(Tracer tracer, Propagator propagator, boolean parentBased,
			boolean correlateUnsampledLogs, NewTraces newTraces, SampledParents sampledParents) {
		this.tracer = tracer;
		this.propagator = propagator;
		List<String> fields = List.copyOf(propagator.fields());
		this.fields = fields.toArray(String[]::new);
		this.readTraceparent = parentBased && fields.contains(W3cTraceParent.HEADER);
		this.correlateUnsampledLogs = correlateUnsampledLogs;
		this.newTraces = newTraces;
		this.linkSampledParents = this.readTraceparent && sampledParents == SampledParents.LINK;
		this.passThrough = RecordTrace.passThrough(fields);
	}

	@Override
	public RecordTrace start(ConsumerRecord<byte[], byte[]> record, String worker, String groupId) {
		return start(record, worker, groupId, null);
	}

	@Override
	public SlotTracing slot(String worker, String groupId) {
		return (this.newTraces == NewTraces.PER_TRANSACTION || this.linkSampledParents)
				? new TransactionTraces(this, worker, groupId) : RecordTracing.super.slot(worker, groupId);
	}

	/**
	 * Start tracing a record; one without trace headers joins its transaction's new trace
	 * when the slot shares them, one in a sampled W3C trace its transaction's linked span
	 * when the slot links them.
	 */
	RecordTrace start(ConsumerRecord<byte[], byte[]> record, String worker, String groupId,
			TransactionTraces shared) {
		Headers headers = record.headers();
		if (this.readTraceparent) {
			int sampled = W3cTraceParent.sampled(W3cTraceParent.value(headers));
			if (sampled == W3cTraceParent.NOT_SAMPLED && !this.correlateUnsampledLogs) {
				return this.passThrough;
			}
			if (sampled == W3cTraceParent.SAMPLED && this.linkSampledParents && shared != null) {
				return shared.startLinked(record);
			}
			if (sampled != W3cTraceParent.INVALID) {
				return started(this.propagator.extract(record, HEADER_GETTER), record, worker, groupId, this.passThrough);
			}
		}
		if (!carriesContext(headers)) {
			if (shared != null && this.newTraces == NewTraces.PER_TRANSACTION) {
				return shared.startShared(record);
			}
			return started(this.tracer.spanBuilder().setNoParent(), record, worker, groupId, RecordTrace.NONE);
		}
		return started(this.propagator.extract(record, HEADER_GETTER), record, worker, groupId, this.passThrough);
	}

	private boolean carriesContext(Headers headers) {
		for (String field : this.fields) {
			if (headers.lastHeader(field) != null) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Start a {@code process <topic>} span, the tracer deciding: tagged when sampled, the
	 * tracer's non-recording span when not sampled but wanted as a scope for the logs,
	 * {@code null} otherwise.
	 */
	private Span startProcessSpan(Span.Builder builder, ConsumerRecord<byte[], byte[]> record, String worker,
			String groupId) {
		Span span = builder.name(spanName(record.topic()))
			.kind(Span.Kind.CONSUMER)
			.start();
		if (!span.isNoop()) {
			return tagged(span, record.topic(), worker, groupId);
		}
		if (this.correlateUnsampledLogs) {
			return span;
		}
		span.abandon();
		return null;
	}

	/** Name the Kafka transaction a span's records joined. */
	static void tagTransaction(Span span, String transactionalId, long sequence) {
		span.tag("lockstep.transaction.id", transactionalId)
			.tag("lockstep.transaction.sequence", Long.toString(sequence));
	}

	/** The event a span of many records gets for one that failed. */
	static String failedEvent(Throwable failure) {
		return "record failed: " + failure.getClass().getName();
	}

	String spanName(String topic) {
		return this.spanNames.computeIfAbsent(topic, (name) -> "process " + name);
	}

	static Span tagged(Span span, String topic, String worker, String groupId) {
		return span.tag("messaging.system", "kafka")
			.tag("messaging.operation.name", "process")
			.tag("messaging.destination.name", topic)
			.tag("messaging.consumer.group.name", groupId)
			.tag("lockstep.worker", worker);
	}

	/**
	 * Start the span of a transaction's new trace, the tracer's sampler deciding.
	 * @return the span, tagged when sampled; {@code null} when it is not sampled and no
	 * scope is wanted for the logs
	 */
	Span startSharedSpan(ConsumerRecord<byte[], byte[]> record, String worker, String groupId) {
		return startProcessSpan(this.tracer.spanBuilder().setNoParent(), record, worker, groupId);
	}

	/**
	 * Return a sampled span's context as the output headers that carry it, written once.
	 */
	Header[] context(Span span) {
		RecordHeaders context = new RecordHeaders();
		this.propagator.inject(span.context(), context, HEADER_SETTER);
		return context.toArray();
	}

	RecordTrace.Scope openScope(Span span) {
		return this.tracer.withSpan(span)::close;
	}

	/** A span builder whose parent is a record's trace context, read by the propagator. */
	Span.Builder parentOf(ConsumerRecord<byte[], byte[]> record) {
		return this.propagator.extract(record, HEADER_GETTER);
	}

	/** The sampled trace context of a valid version 00 traceparent, for a link. */
	TraceContext traceContext(byte[] traceparent) {
		return this.tracer.traceContextBuilder()
			.traceId(W3cTraceParent.traceId(traceparent))
			.spanId(W3cTraceParent.parentId(traceparent))
			.sampled(true)
			.build();
	}

	/** The trace of records that are not sampled: their outputs carry their trace headers. */
	RecordTrace passThrough() {
		return this.passThrough;
	}

	private RecordTrace started(Span.Builder builder, ConsumerRecord<byte[], byte[]> record, String worker,
			String groupId, RecordTrace unsampled) {
		Span span = startProcessSpan(builder, record, worker, groupId);
		if (span == null) {
			return unsampled;
		}
		if (span.isNoop()) {
			// A scope for the logs; the outputs carry what they would without it.
			return new SpanTrace(span, unsampled);
		}
		span.tag("messaging.destination.partition.id", Integer.toString(record.partition()))
			.tag("messaging.kafka.offset", Long.toString(record.offset()));
		return new SpanTrace(span, null);
	}

	/**
	 * A record's span, its scope, and its context in each output (or, for a span that is
	 * not sampled, what the outputs would carry without one). The worker guards and ends
	 * it once.
	 */
	private final class SpanTrace implements RecordTrace {

		private final Span span;

		private final RecordTrace unsampled;

		SpanTrace(Span span, RecordTrace unsampled) {
			this.span = span;
			this.unsampled = unsampled;
		}

		@Override
		public Scope openScope() {
			return MicrometerRecordTracing.this.openScope(this.span);
		}

		@Override
		public void inject(ConsumerRecord<byte[], byte[]> input, Headers output) {
			if (this.unsampled != null) {
				this.unsampled.inject(input, output);
				return;
			}
			// The input's own fields go, even those the span's context does not set again.
			for (String field : MicrometerRecordTracing.this.fields) {
				output.remove(field);
			}
			MicrometerRecordTracing.this.propagator.inject(this.span.context(), output, HEADER_SETTER);
			// Outside the record's scope (an asynchronous processor's completing thread) the
			// propagator sees no baggage: the input's stays.
			for (String field : MicrometerRecordTracing.this.fields) {
				Header carried = input.headers().lastHeader(field);
				if (carried != null && output.lastHeader(field) == null) {
					output.add(carried);
				}
			}
		}

		@Override
		public void error(Throwable failure) {
			this.span.error(failure);
		}

		@Override
		public void joined(String transactionalId, long sequence) {
			tagTransaction(this.span, transactionalId, sequence);
		}

		@Override
		public void end() {
			this.span.end();
		}

	}

}
