package dev.lockstep.benchmarks.throughput;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import com.sun.management.OperatingSystemMXBean;

/**
 * The JVM of one benchmark run: starts the variant, waits until its group has committed
 * the whole input, stops it and prints one {@code RESULT} line for the harness.
 */
public final class VariantMain {

	private VariantMain() {
	}

	public static void main(String[] args) throws Exception {
		RunSpec spec = RunSpec.parse(args);
		double seconds;
		try (Completion completion = new Completion(spec)) {
			AutoCloseable running = spec.variant().start(spec);
			try {
				seconds = completion.await(Duration.ofMinutes(10));
			}
			finally {
				running.close();
			}
		}
		double cpu = ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
		System.out.printf("RESULT seconds=%.4f cpu=%.3f%n", seconds, cpu);
		System.exit(0);
	}

}
