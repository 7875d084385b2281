package dev.lockstep.worker;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many more input records a one-shot worker may process, shared by its slots.
 * Records claimed by a transaction that is aborted are given back.
 */
final class RecordBudget {

	private final AtomicLong remaining;

	RecordBudget(long records) {
		this.remaining = new AtomicLong(records);
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
