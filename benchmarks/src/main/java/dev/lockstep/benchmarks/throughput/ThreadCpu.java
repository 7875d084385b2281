package dev.lockstep.benchmarks.throughput;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The CPU time of this JVM's busiest live threads, for a run's log: where a variant's
 * CPU went (the rest of the process's is the JVM's own: JIT and GC).
 */
final class ThreadCpu {

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private ThreadCpu() {
	}

	static String busiest(int count) {
		long[] ids = THREADS.getAllThreadIds();
		ThreadInfo[] infos = THREADS.getThreadInfo(ids);
		long[] cpu = Arrays.stream(ids).map(THREADS::getThreadCpuTime).toArray();
		return "THREADS " + IntStream.range(0, ids.length)
			.filter((i) -> infos[i] != null && cpu[i] > 0)
			.boxed()
			.sorted(Comparator.comparingLong((Integer i) -> cpu[i]).reversed())
			.limit(count)
			.map((i) -> String.format("%s=%.2fs", infos[i].getThreadName().replace(' ', '_'), cpu[i] / 1e9))
			.collect(Collectors.joining(" "));
	}

}
