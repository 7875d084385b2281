package dev.lockstep.benchmarks.throughput;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import com.sun.management.OperatingSystemMXBean;

/**
 * CPU time of the process a run measures, all threads: this JVM, or the process it
 * started for a variant that runs outside it ({@link SampleJarVariant}).
 */
final class ProcessCpu {

	private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory
		.getOperatingSystemMXBean();

	private static volatile ProcessHandle measured;

	private static volatile long lastNanos;

	private ProcessCpu() {
	}

	/**
	 * Measure another process from now on (its CPU time, not this JVM's).
	 * @param process the process
	 */
	static void measure(ProcessHandle process) {
		measured = process;
	}

	static long nanos() {
		ProcessHandle process = measured;
		if (process == null) {
			return OS.getProcessCpuTime();
		}
		// Once the process has exited its time can no longer be read: the last reading stands.
		process.info().totalCpuDuration().map(Duration::toNanos).ifPresent((nanos) -> lastNanos = nanos);
		return lastNanos;
	}

}
