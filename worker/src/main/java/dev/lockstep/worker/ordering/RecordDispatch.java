package dev.lockstep.worker.ordering;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.slot.ProcessedRecord;
import dev.lockstep.worker.slot.SlotId;
import dev.lockstep.worker.slot.SlotWork;

import org.springframework.core.log.LogAccessor;

/**
 * How a {@link ConcurrentProcessing}'s records run once admitted (under KEY ordering:
 * once no earlier record of their key runs): on the slot's pool, blocking a thread each
 * ({@link BlockingDispatch}) or started there and completed by an asynchronous
 * processor ({@link AsyncDispatch}). Either way a record that is done releases the next
 * record of its key, and wakes the slot.
 */
abstract class RecordDispatch {

	private static final LogAccessor logger = new LogAccessor(RecordDispatch.class);

	final SlotWork work;

	// Under KEY ordering, one record per key at a time; otherwise null.
	final KeyGates gates;

	final SlotThreadPool pool;

	private final SlotId id;

	private final WorkerListener listener;

	private final Runnable wakeSlot;

	// Records handed here and not yet done, stale ones included.
	private final AtomicInteger undone = new AtomicInteger();

	RecordDispatch(SlotId id, SlotWork work, KeyGates gates, int threads, WorkerListener listener,
			Runnable wakeSlot) {
		this.id = id;
		this.work = work;
		this.gates = gates;
		this.pool = new SlotThreadPool(id, threads);
		this.listener = listener;
		this.wakeSlot = wakeSlot;
	}

	/**
	 * Note records handed over, before any of them starts (some may wait behind their key).
	 * @param records how many
	 */
	final void handed(int records) {
		this.undone.addAndGet(records);
	}

	/**
	 * Run records that may start now, in order.
	 * @param records the records
	 */
	abstract void start(List<InFlightRecord> records);

	final boolean isIdle() {
		return this.undone.get() == 0;
	}

	/**
	 * A record is done: its result is there for the slot to take back (the slot is not
	 * woken here), and its times go to the listener.
	 * @param record the record
	 * @param result what its processing gave
	 * @param startedNanos when its processing started
	 * @return how long its processing took
	 */
	final long finish(InFlightRecord record, ProcessedRecord result, long startedNanos) {
		record.result = result;
		long processingNanos = System.nanoTime() - startedNanos;
		done(record);
		if (record.isStale()) {
			// Dropped while it ran (a rewind or revoke): nobody takes it back.
			result.trace().end();
		}
		try {
			this.listener.recordWaited(this.id.worker(), this.id.index(), startedNanos - record.queuedNanos);
		}
		catch (Throwable ex) {
			// Thrown on, it would end a pool task and leave its other records never done.
			logger.debug(ex, () -> this.id + " listener failed");
		}
		reportProcessed(processingNanos);
		return processingNanos;
	}

	/**
	 * A record is done, processed or (stale) dropped unprocessed.
	 * @param record the record
	 */
	final void done(InFlightRecord record) {
		record.done = true;
		this.undone.decrementAndGet();
	}

	/**
	 * Tell the listener how long a record's processing took.
	 * @param processingNanos its processing
	 */
	final void reportProcessed(long processingNanos) {
		try {
			this.listener.recordProcessed(this.id.worker(), this.id.index(), processingNanos);
		}
		catch (Throwable ex) {
			logger.debug(ex, () -> this.id + " listener failed");
		}
	}

	final void wakeSlot() {
		this.wakeSlot.run();
	}

	/**
	 * Stop the pool; work still running finishes on its own, and its result is dropped.
	 */
	void close() {
		this.pool.shutdown();
	}

}
