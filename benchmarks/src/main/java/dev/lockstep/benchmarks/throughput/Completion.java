package dev.lockstep.benchmarks.throughput;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * Watches, from outside the variant, the offsets its group has committed, and notes when
 * they cover the whole input: the run's "last commit". The same watcher for every
 * variant, so none is timed by its own account. The measured window starts at the run's
 * first record or, given {@linkplain RunSpec#warmupRecords() warm-up records}, once the
 * group has committed that many: a service runs for hours, and its JIT's warm-up is then a one-off cost.
 */
final class Completion implements AutoCloseable {

	private static final Duration INTERVAL = Duration.ofMillis(20);

	private final RunSpec spec;

	private final Admin admin;

	private final CountDownLatch done = new CountDownLatch(1);

	private final Thread thread;

	private volatile long doneNanos;

	private volatile long doneCpuNanos;

	private volatile long warmNanos;

	private volatile long warmCpuNanos;

	private volatile long warmRecords;

	private volatile Exception failure;

	Completion(RunSpec spec) {
		this.spec = spec;
		this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers()));
		this.thread = new Thread(this::watch, "completion");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	private void watch() {
		try {
			long warmup = this.spec.warmupRecords();
			long committed;
			while ((committed = committed()) < this.spec.records()) {
				if (warmup > 0 && this.warmNanos == 0 && committed >= warmup) {
					this.warmCpuNanos = ProcessCpu.nanos();
					this.warmNanos = System.nanoTime();
					this.warmRecords = committed;
				}
				Thread.sleep(INTERVAL.toMillis());
			}
			if (warmup > 0 && this.warmNanos == 0) {
				throw new IllegalStateException("A warm-up of " + warmup + " of " + this.spec.records()
						+ " records left no window to measure");
			}
			this.doneNanos = System.nanoTime();
			this.doneCpuNanos = ProcessCpu.nanos();
		}
		catch (Exception ex) {
			this.failure = ex;
		}
		finally {
			this.done.countDown();
		}
	}

	private long committed() throws Exception {
		Map<?, OffsetAndMetadata> offsets = this.admin.listConsumerGroupOffsets(this.spec.group())
			.partitionsToOffsetAndMetadata()
			.get();
		return offsets.values().stream().mapToLong((offset) -> (offset != null) ? offset.offset() : 0).sum();
	}

	/**
	 * Wait until the whole input is committed.
	 * @param timeout how long to wait at most
	 */
	void await(Duration timeout) throws Exception {
		if (!this.done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new IllegalStateException(this.spec.variant().label() + " did not commit " + this.spec.records()
					+ " records within " + timeout + " (committed " + committed() + ")");
		}
		if (this.failure != null) {
			throw this.failure;
		}
	}

	/** Seconds of the measured window: from its start to the last commit. */
	double seconds() {
		long start = (this.warmNanos != 0) ? this.warmNanos : Normalization.firstRecordNanos();
		return (this.doneNanos - start) / 1e9;
	}

	/** Records the measured window committed. */
	long records() {
		return this.spec.records() - this.warmRecords;
	}

	/** CPU seconds of the process in the measured window. */
	double cpuSeconds() {
		long start = (this.warmNanos != 0) ? this.warmCpuNanos : Normalization.firstRecordCpuNanos();
		return (this.doneCpuNanos - start) / 1e9;
	}

	@Override
	public void close() {
		this.thread.interrupt();
		this.admin.close(Duration.ofSeconds(5));
	}

}
