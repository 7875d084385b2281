package dev.lockstep.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * When something was seen to move on (a topic grew, a producer's batch was acknowledged),
 * to measure how long it stood still around a broker restart.
 */
final class Progress {

	// System.nanoTime of each step forward, in order.
	private final List<Long> steps = new ArrayList<>();

	/** Record a step forward, now. */
	synchronized void stepped() {
		this.steps.add(System.nanoTime());
	}

	/** Whether anything moved on yet. */
	synchronized boolean started() {
		return !this.steps.isEmpty();
	}

	/**
	 * The longest standstill around a restart: from the last step before the node was
	 * stopped to the first step after it served requests again, split where a step came in
	 * between.
	 * @param stoppedAt when the node was stopped (System.nanoTime)
	 * @param readyAt when it served requests again
	 * @return the longest standstill; up to now while no step came after
	 */
	synchronized Duration longestPause(long stoppedAt, long readyAt) {
		long longest = 0;
		long previous = Long.MIN_VALUE;
		for (long step : this.steps) {
			if (previous != Long.MIN_VALUE && step >= stoppedAt) {
				longest = Math.max(longest, step - previous);
				if (step >= readyAt) {
					return Duration.ofNanos(longest);
				}
			}
			previous = step;
		}
		return (previous != Long.MIN_VALUE) ? Duration.ofNanos(Math.max(longest, System.nanoTime() - previous))
				: Duration.ZERO;
	}

}
