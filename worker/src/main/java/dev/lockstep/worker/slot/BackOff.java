package dev.lockstep.worker.slot;

import java.time.Duration;

import dev.lockstep.worker.WorkerSettings;

/**
 * A slot's exponential back-off between recovery attempts: doubled after each failure,
 * reset by success, cut short for good when the slot is asked to stop (which it records,
 * for every part of the slot to read) or its thread is interrupted.
 */
final class BackOff {

	private final WorkerSettings.Recovery recovery;

	private final Object lock = new Object();

	private volatile boolean stopRequested;

	private volatile boolean interrupted;

	private int failures;

	BackOff(WorkerSettings.Recovery recovery) {
		this.recovery = recovery;
	}

	/**
	 * Return how long the next {@link #await()} would wait.
	 * @return the next wait
	 */
	Duration next() {
		long millis = Math.min(this.recovery.maxBackoff().toMillis(),
				this.recovery.initialBackoff().toMillis() << Math.min(this.failures, 20));
		return Duration.ofMillis(millis);
	}

	/**
	 * Wait the next back-off, unless the slot is stopping.
	 */
	void await() {
		long millis = next().toMillis();
		this.failures++;
		synchronized (this.lock) {
			if (!isStopped() && millis > 0) {
				try {
					this.lock.wait(millis);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					this.interrupted = true;
				}
			}
		}
	}

	void reset() {
		this.failures = 0;
	}

	/**
	 * The slot is asked to stop: wake it if it is waiting, and never wait again.
	 */
	void stop() {
		synchronized (this.lock) {
			this.stopRequested = true;
			this.lock.notifyAll();
		}
	}

	/**
	 * Return whether the slot was asked to stop.
	 * @return whether {@link #stop()} was called
	 */
	boolean isStopRequested() {
		return this.stopRequested;
	}

	/**
	 * Return whether waiting is over for good: the slot was asked to stop, or its thread
	 * was interrupted while waiting.
	 * @return whether no wait is left
	 */
	boolean isStopped() {
		return this.stopRequested || this.interrupted;
	}

}
