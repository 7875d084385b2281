package dev.lockstep.worker.slot;

import java.time.Duration;

import dev.lockstep.worker.WorkerStatus;

/**
 * A one-shot run's input deadline, shared by the worker's slots: the run fails when none
 * of them has had input for the idle timeout. A slot without partitions, or whose
 * partitions are drained, waits while another slot still reads.
 */
public final class InputDeadline {

	private final Duration idleTimeout;

	private volatile long lastInputNanos = System.nanoTime();

	/**
	 * Create a deadline.
	 * @param idleTimeout the longest the worker may go without input, or {@code null} for
	 * no deadline
	 */
	public InputDeadline(Duration idleTimeout) {
		this.idleTimeout = idleTimeout;
	}

	/** A slot received input (or started reading). */
	void inputArrived() {
		this.lastInputNanos = System.nanoTime();
	}

	/**
	 * Fail the slot when the worker has had no input for the idle timeout.
	 * @throws SlotFailure FAILED past the deadline
	 */
	void check() {
		if (this.idleTimeout != null && System.nanoTime() - this.lastInputNanos > this.idleTimeout.toNanos()) {
			throw new SlotFailure(WorkerStatus.FAILED, "no input for " + this.idleTimeout + " (input deadline exceeded)");
		}
	}

}
