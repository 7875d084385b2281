package dev.lockstep.autoconfigure.observation;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.lockstep.worker.RecordTrace;
import dev.lockstep.worker.RecordTracing;
import dev.lockstep.worker.SlotTracing;
import io.micrometer.tracing.Span;
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
 * ({@link NewTraces#PER_TRANSACTION}, the default): the tracer's sampler is asked once, for
 * the first of them, and a sampled trace's span {@code process <topic>} is the parent of
 * their outputs and the scope of their processing, ended when the transaction has ended
 * and each of its records with it; with {@link NewTraces#PER_RECORD} each such record
 * asks the sampler for a root span of its own. Records that are not sampled get
 * nothing;</li>
 * <li>other propagation (B3, say), or a sampler that is not parent-based, is read by the
 * propagator and decided by the tracer; a record carrying none of the propagator's
 * {@linkplain Propagator#fields() fields} counts as one without context;</li>
 * <li>a sampled record gets one span, {@code process <topic>} of kind CONSUMER, its
 * attributes set once, its context written into each output.</li>
 * </ul>
 * With {@code correlateUnsampledLogs}, records that are not sampled still get the tracer's
 * (non-recording) span and its scope, so log lines carry their trace id; their outputs
 * carry what they would without it.
 */
public final class MicrometerRecordTracing implements RecordTracing {

	static final String TRACEPARENT = "traceparent";

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
	 */
	public MicrometerRecordTracing(Tracer tracer, Propagator propagator, boolean parentBased,
			boolean correlateUnsampledLogs, NewTraces newTraces) {
		this.tracer = tracer;
		this.propagator = propagator;
		List<String> fields = List.copyOf(propagator.fields());
		this.fields = fields.toArray(String[]::new);
		this.readTraceparent = parentBased && fields.contains(TRACEPARENT);
		this.correlateUnsampledLogs = correlateUnsampledLogs;
		this.newTraces = newTraces;
		this.passThrough = RecordTrace.passThrough(fields);
	}

	@Override
	public RecordTrace start(ConsumerRecord<byte[], byte[]> record, String worker, String groupId) {
		return start(record, worker, groupId, null);
	}

	@Override
	public SlotTracing slot(String worker, String groupId) {
		return (this.newTraces == NewTraces.PER_TRANSACTION) ? new TransactionTraces(worker, groupId)
				: RecordTracing.super.slot(worker, groupId);
	}

	private RecordTrace start(ConsumerRecord<byte[], byte[]> record, String worker, String groupId,
			TransactionTraces shared) {
		Headers headers = record.headers();
		if (this.readTraceparent) {
			Header traceparent = headers.lastHeader(TRACEPARENT);
			int sampled = (traceparent != null) ? W3cTraceParent.sampled(traceparent.value())
					: W3cTraceParent.INVALID;
			if (sampled == W3cTraceParent.NOT_SAMPLED && !this.correlateUnsampledLogs) {
				return this.passThrough;
			}
			if (sampled != W3cTraceParent.INVALID) {
				return started(this.propagator.extract(record, HEADER_GETTER), record, worker, groupId, this.passThrough);
			}
		}
		if (!carriesContext(headers)) {
			if (shared != null) {
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

	private Span processSpan(Span.Builder builder, ConsumerRecord<byte[], byte[]> record) {
		return builder.name(this.spanNames.computeIfAbsent(record.topic(), (topic) -> "process " + topic))
			.kind(Span.Kind.CONSUMER)
			.start();
	}

	private RecordTrace started(Span.Builder builder, ConsumerRecord<byte[], byte[]> record, String worker,
			String groupId, RecordTrace unsampled) {
		Span span = processSpan(builder, record);
		if (span.isNoop()) {
			if (!this.correlateUnsampledLogs) {
				span.abandon();
				return unsampled;
			}
			// A scope for the logs; the outputs carry what they would without it.
			return new SpanTrace(span, unsampled);
		}
		span.tag("messaging.system", "kafka")
			.tag("messaging.operation.name", "process")
			.tag("messaging.destination.name", record.topic())
			.tag("messaging.consumer.group.name", groupId)
			.tag("messaging.destination.partition.id", Integer.toString(record.partition()))
			.tag("messaging.kafka.offset", Long.toString(record.offset()))
			.tag("lockstep.worker", worker);
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
			return MicrometerRecordTracing.this.tracer.withSpan(this.span)::close;
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
			this.span.tag("lockstep.transaction.id", transactionalId)
				.tag("lockstep.transaction.sequence", Long.toString(sequence));
		}

		@Override
		public void end() {
			this.span.end();
		}

	}


	/**
	 * What a new trace is started for, when records arrive without one.
	 */
	public enum NewTraces {

		/**
		 * One per transaction of a slot: the sampler is asked once, and a sampled trace's
		 * span is shared by the transaction's records without trace headers.
		 */
		PER_TRANSACTION,

		/** One per record: the sampler is asked for each, and each sampled one gets a span. */
		PER_RECORD

	}

	/**
	 * One slot's records, where those without trace headers share one new trace per
	 * transaction. The slot's thread ends a transaction while its pool's threads may be
	 * starting records: a started record holds the shared trace, which ends once the
	 * transaction has ended and every record that held it has ended.
	 */
	private final class TransactionTraces implements SlotTracing {

		private final String worker;

		private final String groupId;

		private final AtomicReference<SharedTrace> current = new AtomicReference<>();

		TransactionTraces(String worker, String groupId) {
			this.worker = worker;
			this.groupId = groupId;
		}

		@Override
		public RecordTrace start(ConsumerRecord<byte[], byte[]> record) {
			return MicrometerRecordTracing.this.start(record, this.worker, this.groupId, this);
		}

		/** A record without trace headers joins the transaction's trace, deciding it if first. */
		RecordTrace startShared(ConsumerRecord<byte[], byte[]> record) {
			while (true) {
				SharedTrace shared = this.current.get();
				if (shared == null) {
					SharedTrace started = newShared(record);
					if (!this.current.compareAndSet(null, started)) {
						started.abandon();
						continue;
					}
					shared = started;
				}
				if (shared.span == null) {
					return RecordTrace.NONE;
				}
				if (shared.hold()) {
					return new SharedTraceMember(shared);
				}
				// Ended with its transaction meanwhile: the next transaction's trace.
				this.current.compareAndSet(shared, null);
			}
		}

		@Override
		public void transactionEnded() {
			SharedTrace ended = this.current.getAndSet(null);
			if (ended != null) {
				ended.release();
			}
		}

		private SharedTrace newShared(ConsumerRecord<byte[], byte[]> record) {
			Span span = processSpan(MicrometerRecordTracing.this.tracer.spanBuilder().setNoParent(), record);
			if (span.isNoop()) {
				if (!MicrometerRecordTracing.this.correlateUnsampledLogs) {
					span.abandon();
					return SharedTrace.UNSAMPLED;
				}
				// A scope for the logs; the outputs carry what they would without it.
				return new SharedTrace(span, null);
			}
			span.tag("messaging.system", "kafka")
				.tag("messaging.operation.name", "process")
				.tag("messaging.destination.name", record.topic())
				.tag("messaging.consumer.group.name", this.groupId)
				.tag("lockstep.worker", this.worker);
			RecordHeaders context = new RecordHeaders();
			MicrometerRecordTracing.this.propagator.inject(span.context(), context, HEADER_SETTER);
			return new SharedTrace(span, context.toArray());
		}

	}

	/**
	 * A transaction's new trace: its span (none when not sampled), the context its
	 * records' outputs carry (none for a span that is not sampled), and the holds that keep
	 * it open: the transaction's own and one per record.
	 */
	private static final class SharedTrace {

		static final SharedTrace UNSAMPLED = new SharedTrace(null, null);

		final Span span;

		final Header[] context;

		// The transaction's hold, then one per record; 0 once ended.
		private final AtomicInteger holds = new AtomicInteger(1);

		private final AtomicInteger records = new AtomicInteger();

		private final AtomicBoolean joined = new AtomicBoolean();

		SharedTrace(Span span, Header[] context) {
			this.span = span;
			this.context = context;
		}

		boolean hold() {
			for (int held = this.holds.get(); held > 0; held = this.holds.get()) {
				if (this.holds.compareAndSet(held, held + 1)) {
					this.records.incrementAndGet();
					return true;
				}
			}
			return false;
		}

		void release() {
			if (this.span != null && this.holds.decrementAndGet() == 0) {
				if (this.context != null) {
					this.span.tag("messaging.batch.message_count", Integer.toString(this.records.get()));
				}
				this.span.end();
			}
		}

		void joined(String transactionalId, long sequence) {
			if (this.context != null && this.joined.compareAndSet(false, true)) {
				this.span.tag("lockstep.transaction.id", transactionalId)
					.tag("lockstep.transaction.sequence", Long.toString(sequence));
			}
		}

		void abandon() {
			if (this.span != null) {
				this.span.abandon();
			}
		}

	}

	/**
	 * A record's part in its transaction's new trace: the shared span's scope while it is
	 * processed, the shared context in each output when sampled, and its hold released at
	 * its end. A failed record is an event of the shared span, not its error.
	 */
	private final class SharedTraceMember implements RecordTrace {

		private final SharedTrace shared;

		SharedTraceMember(SharedTrace shared) {
			this.shared = shared;
		}

		@Override
		public Scope openScope() {
			return MicrometerRecordTracing.this.tracer.withSpan(this.shared.span)::close;
		}

		@Override
		public void inject(ConsumerRecord<byte[], byte[]> input, Headers output) {
			if (this.shared.context == null) {
				return;
			}
			for (String field : MicrometerRecordTracing.this.fields) {
				output.remove(field);
			}
			for (Header header : this.shared.context) {
				output.add(header);
			}
		}

		@Override
		public void error(Throwable failure) {
			if (this.shared.context != null) {
				this.shared.span.event("record failed: " + failure.getClass().getName());
			}
		}

		@Override
		public void joined(String transactionalId, long sequence) {
			this.shared.joined(transactionalId, sequence);
		}

		@Override
		public void end() {
			this.shared.release();
		}

	}

}
