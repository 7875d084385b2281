package dev.lockstep.worker.slot;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many more input records a one-shot worker may process, shared by its slots.
 * Records claimed by a transaction that is aborted are given back; the run is complete
 * once every record of the budget is committed, whichever slots committed them.
 */
public final class RecordBudget {

	private final long records;

	private final AtomicLong remaining;

	private final AtomicLong committed = new AtomicLong();

	/**
	 * Create a budget shared by a worker's slots.
	 * @param records the records the worker processes before it stops
	 */
	public RecordBudget(long records) {
		this.records = records;
		this.remaining = new AtomicLong(records);
	}

	void committed(int records) {
		this.committed.addAndGet(records);
	}

	/**
	 * Return whether every record of the budget is committed: a slot holding none of them
	 * has nothing left to do.
	 * @return whether the run is complete
	 */
	boolean isComplete() {
		return this.committed.get() >= this.records;
	}

	boolean tryClaim() {
		return this.remaining.getAndUpdate((left) -> (left > 0) ? left - 1 : left) > 0;
	}

	void release(int records) {
		this.remaining.addAndGet(records);
	}

	boolean isExhausted() {
		return this.remaining.get() <= 0;
	}

}
