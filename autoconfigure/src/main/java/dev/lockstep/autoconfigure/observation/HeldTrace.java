package dev.lockstep.autoconfigure.observation;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.worker.RecordTrace;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * A trace that one transaction of a slot shares among records, held open by the
 * transaction and by each record that joined it: it ends once the transaction has ended
 * and every one of those records has, on the thread of whichever lets go last (records
 * join on the slot's thread or its pool's).
 */
abstract class HeldTrace {

	// The transaction's hold, then one per record; 0 once ended.
	private final AtomicInteger holds = new AtomicInteger(1);

	private final AtomicBoolean named = new AtomicBoolean();

	/**
	 * Let a record join the trace.
	 * @param record the record as consumed
	 * @return the record's part in the trace, or {@code null} when the trace ended
	 * meanwhile (the record belongs to the next transaction's)
	 */
	RecordTrace join(ConsumerRecord<byte[], byte[]> record) {
		for (int held = this.holds.get(); held > 0; held = this.holds.get()) {
			if (this.holds.compareAndSet(held, held + 1)) {
				added(record);
				return new Member();
			}
		}
		return null;
	}

	/** The transaction ended, or a record let go: the last to let go ends the trace. */
	final void release() {
		if (this.holds.decrementAndGet() == 0) {
			ended();
		}
	}

	/** A record joined the trace. */
	abstract void added(ConsumerRecord<byte[], byte[]> record);

	/** The first record that joined a transaction names it. */
	abstract void named(String transactionalId, long sequence);

	/** Every hold has let go. */
	abstract void ended();

	/** Another trace was made current first: this one was never joined. */
	abstract void abandon();

	/** The scope of a record's processing. */
	abstract RecordTrace.Scope openScope();

	/** Write the trace context into one of a record's outputs. */
	abstract void inject(ConsumerRecord<byte[], byte[]> input, Headers output);

	/** A record's processing failed. */
	abstract void failed(Throwable failure);

	/** A record's part in the trace: its hold, let go once, and what it delegates. */
	private final class Member implements RecordTrace {

		private final AtomicBoolean ended = new AtomicBoolean();

		@Override
		public Scope openScope() {
			return HeldTrace.this.openScope();
		}

		@Override
		public void inject(ConsumerRecord<byte[], byte[]> input, Headers output) {
			HeldTrace.this.inject(input, output);
		}

		@Override
		public void error(Throwable failure) {
			failed(failure);
		}

		@Override
		public void joined(String transactionalId, long sequence) {
			if (HeldTrace.this.named.compareAndSet(false, true)) {
				named(transactionalId, sequence);
			}
		}

		@Override
		public void end() {
			if (this.ended.compareAndSet(false, true)) {
				release();
			}
		}

	}

}
