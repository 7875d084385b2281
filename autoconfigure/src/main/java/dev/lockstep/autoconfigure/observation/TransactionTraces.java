package dev.lockstep.autoconfigure.observation;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import dev.lockstep.worker.observation.RecordTrace;
import dev.lockstep.worker.observation.SlotTracing;
import io.micrometer.tracing.Span;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One slot's records, where a transaction's records share a trace: those without trace
 * headers one new trace ({@link NewTraces#PER_TRANSACTION}, a {@link SharedTrace}: the
 * first of them after the slot's previous transaction ended asks the tracer's sampler),
 * those in sampled W3C traces one span linked to each ({@link SampledParents#LINK}, a
 * {@link LinkedSpan}). Other records are started as {@link MicrometerRecordTracing}
 * starts any record.
 *
 * <p>
 * A record belongs to the trace current when it starts: under ordering key or none, a
 * record started before a commit and taken into the next transaction stays in the
 * earlier trace, which names the transaction its first record joined. Records start on
 * the slot's thread or its pool's; the slot's thread ends transactions and closes.
 */
final class TransactionTraces implements SlotTracing {

	private final MicrometerRecordTracing tracing;

	private final String worker;

	private final String groupId;

	private final AtomicReference<HeldTrace> sharedTrace = new AtomicReference<>();

	private final AtomicReference<HeldTrace> linkedSpan = new AtomicReference<>();

	// Built once: a record joining a trace allocates nothing for them.
	private final Function<ConsumerRecord<byte[], byte[]>, HeldTrace> sharedTraceFactory = this::newSharedTrace;

	private final Function<ConsumerRecord<byte[], byte[]>, HeldTrace> linkedSpanFactory = this::newLinkedSpan;

	private volatile boolean closed;

	TransactionTraces(MicrometerRecordTracing tracing, String worker, String groupId) {
		this.tracing = tracing;
		this.worker = worker;
		this.groupId = groupId;
	}

	@Override
	public RecordTrace start(ConsumerRecord<byte[], byte[]> record) {
		return this.tracing.start(record, this.worker, this.groupId, this);
	}

	/** A record without trace headers joins the transaction's new trace, deciding it if first. */
	RecordTrace startShared(ConsumerRecord<byte[], byte[]> record) {
		return join(this.sharedTrace, this.sharedTraceFactory, record, RecordTrace.NONE);
	}

	/** A record in a sampled W3C trace joins the transaction's linked span, its parent if first. */
	RecordTrace startLinked(ConsumerRecord<byte[], byte[]> record) {
		return join(this.linkedSpan, this.linkedSpanFactory, record, this.tracing.passThrough());
	}

	private RecordTrace join(AtomicReference<HeldTrace> current,
			Function<ConsumerRecord<byte[], byte[]>, HeldTrace> factory, ConsumerRecord<byte[], byte[]> record,
			RecordTrace whenClosed) {
		while (!this.closed) {
			HeldTrace trace = current.get();
			if (trace == null) {
				HeldTrace created = factory.apply(record);
				if (!current.compareAndSet(null, created)) {
					created.abandon();
					continue;
				}
				if (this.closed) {
					// Closed meanwhile, after its last transaction ended: it ends with this record.
					end(current);
				}
				return created.first(record);
			}
			RecordTrace member = trace.join(record);
			if (member != null) {
				return member;
			}
			// Ended with its transaction meanwhile: the next transaction's trace.
			current.compareAndSet(trace, null);
		}
		return whenClosed;
	}

	@Override
	public void transactionEnded() {
		try {
			end(this.sharedTrace);
		}
		finally {
			end(this.linkedSpan);
		}
	}

	private static void end(AtomicReference<HeldTrace> current) {
		HeldTrace ended = current.getAndSet(null);
		if (ended != null) {
			ended.release();
		}
	}

	@Override
	public void close() {
		this.closed = true;
		transactionEnded();
	}

	private HeldTrace newSharedTrace(ConsumerRecord<byte[], byte[]> record) {
		Span span = this.tracing.startSharedSpan(record, this.worker, this.groupId);
		// A span that is not sampled is only a scope for the logs: outputs carry nothing.
		return new SharedTrace(this.tracing, span, (span == null || span.isNoop()) ? null : this.tracing.context(span));
	}

	private HeldTrace newLinkedSpan(ConsumerRecord<byte[], byte[]> record) {
		return new LinkedSpan(this.tracing, record, this.worker, this.groupId);
	}

}
