package dev.lockstep.worker.ordering;

import java.util.List;

import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.observation.RecordTrace;
import dev.lockstep.worker.slot.ProcessedRecord;
import dev.lockstep.worker.slot.SlotId;
import dev.lockstep.worker.slot.SlotWork;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Records of a blocking processor on the slot's pool of max-in-flight threads, one
 * thread per record processing. A task runs a batch of records for a fast processor (one
 * hand-off to a thread costs more than such a record), a single record for a slow one;
 * the next record of a key runs on the thread that finished its predecessor.
 * <p>
 * A cheap processor (under {@link #CHEAP_NANOS} a record) runs on the slot thread
 * instead, a poll at a time while nothing runs on the pool: in offset order, which keeps
 * every ordering's promise. The cost is learnt from whole polls and batches, not single
 * records, so a pause (a GC, a preempted thread) in the middle of a poll does not send a
 * cheap processor to the pool; a poll whose records together take longer than cheap ones
 * would hands the rest over.
 */
final class BlockingDispatch extends RecordDispatch {

	// A batch is sized to about this much work by the recent processing time.
	private static final long BATCH_NANOS = 200_000;

	private static final int MAX_BATCH = 64;

	// At most this much a record, a processor is cheaper on the slot thread than handed over
	// (a batch of it would hold more than a sixteenth of BATCH_NANOS).
	static final long CHEAP_NANOS = BATCH_NANOS / 16;

	// A moving average of the processing time per record, sampled per poll run on the slot
	// thread and per batch on the pool, written without coordination (an estimate).
	private volatile long averageNanos;

	// The poll being run on the slot thread: its records, how many ran and for how long.
	private int herePlanned;

	private int hereDone;

	private long hereNanos;

	/**
	 * Create the dispatch.
	 * @param assumedNanos what a record is assumed to cost until records are measured: 0
	 * (cheap: the first poll runs on the slot thread, and hands its rest over as soon as
	 * its records take longer than cheap ones would)
	 */
	BlockingDispatch(SlotId id, SlotWork work, KeyGates gates, int maxInFlight, WorkerListener listener,
			Runnable wakeSlot, long assumedNanos) {
		super(id, work, gates, maxInFlight, listener, wakeSlot);
		this.averageNanos = assumedNanos;
	}

	/**
	 * Return whether records are cheaper to process on the slot thread than to hand over.
	 * @return whether the processor is cheap
	 */
	boolean isCheap() {
		return this.averageNanos < CHEAP_NANOS;
	}

	/**
	 * Return whether the slot thread should run the next poll itself: the processor is
	 * cheap and nothing handed over is still running (so no key has a record running
	 * elsewhere).
	 * @return whether to run the next poll on the slot thread
	 */
	boolean runsHere() {
		return isCheap() && isIdle();
	}

	/**
	 * The slot thread starts running a poll itself.
	 * @param records the poll's records
	 */
	void startHere(int records) {
		this.herePlanned = records;
		this.hereDone = 0;
		this.hereNanos = 0;
	}

	/**
	 * Process one of the poll's records on the calling (slot) thread.
	 * @param raw the record
	 * @return the processed record
	 */
	ProcessedRecord runHere(ConsumerRecord<byte[], byte[]> raw) {
		long startedNanos = System.nanoTime();
		ProcessedRecord result = run(raw);
		long processingNanos = System.nanoTime() - startedNanos;
		this.hereDone++;
		this.hereNanos += processingNanos;
		reportProcessed(processingNanos);
		return result;
	}

	/**
	 * Return whether the poll's records run so far took longer than the whole poll would
	 * if its records were cheap: the rest is better handed over.
	 * @return whether the poll is over its budget
	 */
	boolean isHereOverBudget() {
		return this.hereNanos > this.herePlanned * CHEAP_NANOS;
	}

	/**
	 * The slot thread is done running its poll (all of it, or up to a hand-over): learn
	 * from it.
	 */
	void endHere() {
		if (this.hereDone > 0) {
			average(this.hereNanos / this.hereDone);
		}
	}

	@Override
	void start(List<InFlightRecord> records) {
		int batchSize = (int) Math.max(1, Math.min(MAX_BATCH, BATCH_NANOS / Math.max(1, this.averageNanos)));
		for (int from = 0; from < records.size(); from += batchSize) {
			InFlightRecord[] batch = records.subList(from, Math.min(records.size(), from + batchSize))
				.toArray(InFlightRecord[]::new);
			this.pool.execute(() -> run(batch));
		}
	}

	private void run(InFlightRecord[] batch) {
		while (batch.length > 0) {
			long nanos = 0;
			int processed = 0;
			for (InFlightRecord record : batch) {
				// A record dropped by a rewind or revoke while it waited is not processed.
				if (record.isStale()) {
					done(record);
					continue;
				}
				long startedNanos = System.nanoTime();
				nanos += finish(record, run(record.raw), startedNanos);
				processed++;
				if (batch.length == 1) {
					wakeSlot();
				}
			}
			if (batch.length > 1) {
				// A fast batch wakes the slot once, not for every record.
				wakeSlot();
			}
			if (processed > 0) {
				average(nanos / processed);
			}
			batch = (this.gates != null) ? this.gates.done(batch).toArray(InFlightRecord[]::new) : new InFlightRecord[0];
		}
	}

	private ProcessedRecord run(ConsumerRecord<byte[], byte[]> raw) {
		try {
			return this.work.run(raw);
		}
		catch (Throwable ex) {
			// Thrown on, it would end a pool task and leave its records never done.
			return ProcessedRecord.failed(raw, new IllegalStateException("Processing failed", ex), false,
					RecordTrace.NONE);
		}
	}

	private void average(long nanosPerRecord) {
		long average = this.averageNanos;
		this.averageNanos = average + (nanosPerRecord - average) / 8;
	}

}
