package dev.lockstep.benchmarks.rebalance;

import java.util.Arrays;

/**
 * Every output record the observer saw: its input's partition, when its input was
 * sent, and when it became visible to a read_committed reader.
 */
final class Arrivals {

	private long[] partition = new long[1 << 16];

	private long[] sent = new long[1 << 16];

	private long[] seen = new long[1 << 16];

	private int size;

	synchronized void add(int partition, long sentMillis, long seenMillis) {
		if (this.size == this.seen.length) {
			this.partition = Arrays.copyOf(this.partition, this.size * 2);
			this.sent = Arrays.copyOf(this.sent, this.size * 2);
			this.seen = Arrays.copyOf(this.seen, this.size * 2);
		}
		this.partition[this.size] = partition;
		this.sent[this.size] = sentMillis;
		this.seen[this.size] = seenMillis;
		this.size++;
	}

	/**
	 * The longest time any partition went without output between two moments: from the
	 * first to its first output after it, between its outputs, and from its last to the
	 * second.
	 */
	synchronized long longestGap(long fromMillis, long toMillis, int partitions) {
		long[] previous = new long[partitions];
		Arrays.fill(previous, fromMillis);
		long longest = 0;
		for (int i = firstSeenAtOrAfter(fromMillis); i < this.size && this.seen[i] <= toMillis; i++) {
			int p = (int) this.partition[i];
			longest = Math.max(longest, this.seen[i] - previous[p]);
			previous[p] = this.seen[i];
		}
		for (long last : previous) {
			longest = Math.max(longest, toMillis - last);
		}
		return longest;
	}

	/**
	 * The moment every partition had shown output for input sent at or after the event,
	 * or 0 while some has not.
	 */
	synchronized long allResumedAfter(long eventMillis, int partitions) {
		long[] resumed = new long[partitions];
		int count = 0;
		// Output for input sent after the event was seen after it.
		for (int i = firstSeenAtOrAfter(eventMillis); i < this.size && count < partitions; i++) {
			int p = (int) this.partition[i];
			if (this.sent[i] >= eventMillis && resumed[p] == 0) {
				resumed[p] = this.seen[i];
				count++;
			}
		}
		if (count < partitions) {
			return 0;
		}
		long last = 0;
		for (long at : resumed) {
			last = Math.max(last, at);
		}
		return last;
	}

	// Seen times only grow (one observer thread appends them): a binary search.
	private int firstSeenAtOrAfter(long millis) {
		int from = 0;
		int to = this.size;
		while (from < to) {
			int middle = (from + to) >>> 1;
			if (this.seen[middle] < millis) {
				from = middle + 1;
			}
			else {
				to = middle;
			}
		}
		return from;
	}

}
