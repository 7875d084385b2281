package dev.lockstep.worker.ordering;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.lockstep.worker.AsyncRecordProcessor;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.observation.RecordTrace;
import dev.lockstep.worker.slot.ProcessedRecord;
import dev.lockstep.worker.slot.SlotId;
import dev.lockstep.worker.slot.SlotWork;

/**
 * Records of an {@link AsyncRecordProcessor}: started on the slot's pool (a few threads:
 * a call only starts the work) and completed by the processor's stage, at most
 * max-in-flight at once; the others wait, in order, for one to complete. A record in
 * flight holds no thread.
 */
final class AsyncDispatch extends RecordDispatch {

	// Guarded by this.
	private final Deque<InFlightRecord> waiting = new ArrayDeque<>();

	// Records that may still start before max-in-flight are running; guarded by this.
	private int permits;

	AsyncDispatch(SlotId id, SlotWork work, KeyGates gates, int maxInFlight, WorkerListener listener,
			Runnable wakeSlot) {
		super(id, work, gates, Math.min(maxInFlight, Runtime.getRuntime().availableProcessors()), listener, wakeSlot);
		this.permits = maxInFlight;
	}

	@Override
	void start(List<InFlightRecord> records) {
		List<InFlightRecord> now = new ArrayList<>(records.size());
		synchronized (this) {
			this.waiting.addAll(records);
			takePermits(now);
		}
		call(now);
	}

	private void call(List<InFlightRecord> records) {
		if (!records.isEmpty()) {
			this.pool.execute(() -> records.forEach(this::call));
		}
	}

	private void call(InFlightRecord record) {
		// A record dropped by a rewind or revoke while it waited is not processed.
		if (record.isStale()) {
			done(record);
			completed(record);
			return;
		}
		long startedNanos = System.nanoTime();
		CompletionStage<ProcessedRecord> stage;
		try {
			stage = this.work.start(record.raw);
		}
		catch (Throwable ex) {
			// Thrown on, it would leave the record never done.
			stage = CompletableFuture.completedFuture(ProcessedRecord.failed(record.raw,
					new IllegalStateException("Processing failed", ex), false, RecordTrace.NONE));
		}
		stage.thenAccept((result) -> {
			finish(record, result, startedNanos);
			wakeSlot();
			completed(record);
		});
	}

	/** A permit is free, and the next record of the key may start: start what may. */
	private void completed(InFlightRecord record) {
		InFlightRecord next = (this.gates != null) ? this.gates.done(record) : null;
		List<InFlightRecord> now = new ArrayList<>(2);
		synchronized (this) {
			this.permits++;
			if (next != null) {
				this.waiting.addLast(next);
			}
			takePermits(now);
		}
		call(now);
	}

	private void takePermits(List<InFlightRecord> into) {
		while (this.permits > 0 && !this.waiting.isEmpty()) {
			this.permits--;
			into.add(this.waiting.pollFirst());
		}
	}

}
