package dev.lockstep.benchmarks.throughput;

import java.util.Locale;
import java.util.Set;

import dev.lockstep.benchmarks.Order;

/**
 * The sample's business logic, shared by every variant: validate an order and upper-case
 * its status. It also notes when the run's first record arrives, where its clocks start.
 */
final class Normalization {

	private static final Set<String> STATUSES = Set.of("PAID", "REFUNDED");

	private static volatile long firstRecordNanos;

	private static volatile long firstRecordCpuNanos;

	// The slow-processor workload: how long each record waits, as for a remote call.
	private static volatile long delayMillis;

	private Normalization() {
	}

	/**
	 * Make every record wait, as a processor calling a remote service does.
	 * @param millis the wait per record; 0 for none
	 */
	static void delay(long millis) {
		delayMillis = millis;
	}

	static Order normalize(Order order) {
		if (firstRecordNanos == 0) {
			firstRecordCpuNanos = ProcessCpu.nanos();
			firstRecordNanos = System.nanoTime();
		}
		if (delayMillis > 0) {
			try {
				Thread.sleep(delayMillis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted in the processor's wait", ex);
			}
		}
		if (order == null) {
			return null;
		}
		String status = order.getStatus().toUpperCase(Locale.ROOT);
		if (order.getId() <= 0 || order.getAmountCents() < 0 || !STATUSES.contains(status)) {
			throw new IllegalArgumentException("invalid order " + order.getId());
		}
		return new Order(order.getId(), status, order.getAmountCents());
	}

	/** When the first record of the run was normalized ({@link System#nanoTime()}), or 0. */
	static long firstRecordNanos() {
		return firstRecordNanos;
	}

	/** The process's CPU time when the first record was normalized, or 0. */
	static long firstRecordCpuNanos() {
		return firstRecordCpuNanos;
	}

}
