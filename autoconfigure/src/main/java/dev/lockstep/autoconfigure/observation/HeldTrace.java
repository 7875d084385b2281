package dev.lockstep.autoconfigure.observation;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.worker.observation.RecordTrace;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * A trace that one transaction of a slot shares among records, held open by the
 * transaction and by each record in it: it ends once the transaction has ended and every
 * one of those records has, on the thread of whichever lets go last (records join on the
 * slot's thread or its pool's). It is created for a record, which holds it from the
 * start: a trace never ends before its first record has joined.
 */
abstract class HeldTrace {

	// The transaction's hold and one per record; 0 once ended.
	private final AtomicInteger holds = new AtomicInteger(2);

	private final AtomicBoolean named = new AtomicBoolean();

	/**
	 * The part in the trace of the record it was created for.
	 * @param first that record
	 * @return its part
	 */
	RecordTrace first(ConsumerRecord<byte[], byte[]> first) {
		recordAdded(first);
		return new Member();
	}

	/**
	 * Let another record join the trace.
	 * @param record the record as consumed
	 * @return the record's part in the trace, or {@code null} when the trace ended
	 * meanwhile (the record belongs to the next transaction's)
	 */
	RecordTrace join(ConsumerRecord<byte[], byte[]> record) {
		for (int held = this.holds.get(); held > 0; held = this.holds.get()) {
			if (this.holds.compareAndSet(held, held + 1)) {
				recordAdded(record);
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
	abstract void recordAdded(ConsumerRecord<byte[], byte[]> record);

	/** The first of its records to join a Kafka transaction names it. */
	abstract void transactionNamed(String transactionalId, long sequence);

	/** Every hold has let go. */
	abstract void ended();

	/** Another trace was made current first: this one's first record joins that instead. */
	abstract void abandon();

	/** The scope of a record's processing. */
	abstract RecordTrace.Scope openScope();

	/** Write the trace context into one of a record's outputs. */
	abstract void inject(ConsumerRecord<byte[], byte[]> input, Headers output);

	/** A record's processing failed. */
	abstract void failed(Throwable failure);

	/** A record's part in the trace: its hold, let go once; the rest the trace's. */
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
				transactionNamed(transactionalId, sequence);
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
