package dev.lockstep.autoconfigure.observation;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.lockstep.worker.RecordTrace;
import dev.lockstep.worker.SlotTracing;
import io.micrometer.tracing.Span;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * One slot's records, where those without trace headers share one new trace per
 * transaction ({@link NewTraces#PER_TRANSACTION}): the first of them after the slot's
 * previous transaction ended asks the tracer's sampler; a sampled trace's span
 * {@code process <topic>} is the scope of their processing and the parent of their
 * outputs (its context written once), and it ends once the transaction has ended and
 * every record that held it has ended. Records that carry a trace are started as
 * {@link MicrometerRecordTracing} starts any record.
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

	private final AtomicReference<SharedTrace> current = new AtomicReference<>();

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

	/** A record without trace headers joins the transaction's trace, deciding it if first. */
	RecordTrace startShared(ConsumerRecord<byte[], byte[]> record) {
		while (!this.closed) {
			SharedTrace shared = this.current.get();
			if (shared == null) {
				shared = newShared(record);
				if (!this.current.compareAndSet(null, shared)) {
					shared.abandon();
					continue;
				}
				if (this.closed) {
					// Closed meanwhile, after its last transaction ended: end this one too.
					transactionEnded();
					continue;
				}
			}
			if (shared.span == null) {
				return RecordTrace.NONE;
			}
			if (shared.hold()) {
				return new Member(shared);
			}
			// Ended with its transaction meanwhile: the next transaction's trace.
			this.current.compareAndSet(shared, null);
		}
		return RecordTrace.NONE;
	}

	@Override
	public void transactionEnded() {
		SharedTrace ended = this.current.getAndSet(null);
		if (ended != null) {
			ended.release();
		}
	}

	@Override
	public void close() {
		this.closed = true;
		transactionEnded();
	}

	private SharedTrace newShared(ConsumerRecord<byte[], byte[]> record) {
		Span span = this.tracing.startSharedSpan(record, this.worker, this.groupId);
		if (span == null) {
			return SharedTrace.UNSAMPLED;
		}
		// A span that is not sampled is only a scope for the logs: outputs carry nothing.
		return new SharedTrace(span, span.isNoop() ? null : this.tracing.context(span));
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
	 * A record's part in its transaction's trace: the shared span's scope while it is
	 * processed, the shared context in each output when sampled, and its hold, released
	 * once. A failed record is an event of the shared span, not its error.
	 */
	private final class Member implements RecordTrace {

		private final SharedTrace shared;

		private final AtomicBoolean ended = new AtomicBoolean();

		Member(SharedTrace shared) {
			this.shared = shared;
		}

		@Override
		public Scope openScope() {
			return TransactionTraces.this.tracing.openScope(this.shared.span);
		}

		@Override
		public void inject(ConsumerRecord<byte[], byte[]> input, Headers output) {
			if (this.shared.context == null) {
				return;
			}
			// The input has no trace headers: only the trace context is replaced, so
			// baggage the processor wrote onto the output stays.
			for (Header header : this.shared.context) {
				output.remove(header.key());
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
			if (this.ended.compareAndSet(false, true)) {
				this.shared.release();
			}
		}

	}

}
