package dev.lockstep.worker;

import java.util.List;

/**
 * Records of a blocking processor on the slot's pool of max-in-flight threads, one
 * thread per record processing. A task runs a batch of records for a fast processor (one
 * hand-off to a thread costs more than such a record), a single record for a slow one;
 * the next record of a key runs on the thread that finished its predecessor.
 */
final class BlockingDispatch extends RecordDispatch {

	// A batch is sized to about this much work by the recent processing time.
	private static final long BATCH_NANOS = 200_000;

	private static final int MAX_BATCH = 64;

	// A moving average of recent processing times, written by pool threads without
	// coordination (an estimate); it starts slow, so the first records run one per task.
	private volatile long averageNanos = 1_000_000;

	BlockingDispatch(SlotId id, SlotWork work, KeyGates gates, int maxInFlight, WorkerListener listener,
			Runnable wakeSlot) {
		super(id, work, gates, maxInFlight, listener, wakeSlot);
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
			for (InFlightRecord record : batch) {
				process(record);
				if (batch.length == 1) {
					wakeSlot();
				}
			}
			if (batch.length > 1) {
				// A fast batch wakes the slot once, not for every record.
				wakeSlot();
			}
			batch = (this.gates != null) ? this.gates.done(batch).toArray(InFlightRecord[]::new) : new InFlightRecord[0];
		}
	}

	private void process(InFlightRecord record) {
		// A record dropped by a rewind or revoke while it waited is not processed.
		if (record.isStale()) {
			record.done = true;
			return;
		}
		long startedNanos = System.nanoTime();
		ProcessedRecord result;
		try {
			result = this.work.run(record.raw);
		}
		catch (Throwable ex) {
			// Thrown on, it would end the task and leave the record never done.
			result = new ProcessedRecord(record.raw, false, null, new IllegalStateException("Processing failed", ex));
		}
		long processingNanos = finish(record, result, startedNanos);
		long average = this.averageNanos;
		this.averageNanos = average + (processingNanos - average) / 16;
	}

}
