package dev.lockstep.benchmarks.throughput;

import java.lang.management.ManagementFactory;

import com.sun.management.OperatingSystemMXBean;

/**
 * CPU time of this whole process, all threads.
 */
final class ProcessCpu {

	private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory
		.getOperatingSystemMXBean();

	private ProcessCpu() {
	}

	static long nanos() {
		return OS.getProcessCpuTime();
	}

}
