package dev.lockstep.benchmarks.throughput;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.lockstep.benchmarks.Order;

/**
 * The sample's business logic, shared by every variant: validate an order and upper-case
 * its status. It also notes when the run's first record arrives, where its clocks start.
 */
final class Normalization {

	private static final Set<String> STATUSES = Set.of("PAID", "REFUNDED");

	private static volatile long firstRecordNanos;

	private static volatile long firstRecordCpuNanos;

	// The I/O thread of a non-blocking client: it completes every call's stage. (Not
	// CompletableFuture's delayed executor: on two cores that starts a thread per task.)
	private static final ScheduledExecutorService CLIENT = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "bench-async-client");
		thread.setDaemon(true);
		return thread;
	});

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
		noteFirstRecord();
		if (delayMillis > 0) {
			try {
				Thread.sleep(delayMillis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted in the processor's wait", ex);
			}
		}
		return normalizeNow(order);
	}

	/**
	 * Normalize once the wait is over, without holding a thread meanwhile, as a processor
	 * calling a remote service through a non-blocking client does.
	 * @param order the order
	 * @return a stage of the normalized order
	 */
	static CompletionStage<Order> normalizeLater(Order order) {
		noteFirstRecord();
		if (delayMillis == 0) {
			return CompletableFuture.completedFuture(normalizeNow(order));
		}
		CompletableFuture<Order> normalized = new CompletableFuture<>();
		CLIENT.schedule(() -> {
			try {
				normalized.complete(normalizeNow(order));
			}
			catch (RuntimeException ex) {
				normalized.completeExceptionally(ex);
			}
		}, delayMillis, TimeUnit.MILLISECONDS);
		return normalized;
	}

	/** Note the run's first record, unless one was noted already. */
	static void noteFirstRecord() {
		if (firstRecordNanos == 0) {
			firstRecordCpuNanos = ProcessCpu.nanos();
			firstRecordNanos = System.nanoTime();
		}
	}

	private static Order normalizeNow(Order order) {
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
