package dev.lockstep.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * When something was seen to move on (the worker's commits, a producer's batch
 * acknowledged), to measure how long it stood still around a broker restart.
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
	 * Whether a step came after the given time.
	 * @param since a System.nanoTime
	 */
	synchronized boolean steppedSince(long since) {
		return !this.steps.isEmpty() && this.steps.get(this.steps.size() - 1) > since;
	}

	/**
	 * The longest standstill of a window, such as from a node's stop to the next one's:
	 * the longest time between two steps, or from the last step to the window's end, of
	 * those that reach into the window (a standstill that began before it counts whole).
	 * @param from the window's start (System.nanoTime)
	 * @param to the window's end
	 * @return the longest standstill; zero before any step
	 */
	synchronized Duration longestPause(long from, long to) {
		long longest = 0;
		long last = Long.MIN_VALUE;
		for (long step : this.steps) {
			if (step > from && last != Long.MIN_VALUE) {
				longest = Math.max(longest, step - last);
			}
			if (step >= to) {
				return Duration.ofNanos(longest);
			}
			last = step;
		}
		return (last != Long.MIN_VALUE) ? Duration.ofNanos(Math.max(longest, to - last)) : Duration.ZERO;
	}

}
