package dev.lockstep.benchmarks.throughput;

import java.time.Duration;

/**
 * The JVM of one benchmark run: starts the variant, waits until its group has committed
 * the whole input, stops it and prints one {@code RESULT} line for the harness.
 */
public final class VariantMain {

	private VariantMain() {
	}

	public static void main(String[] args) throws Exception {
		RunSpec spec = RunSpec.parse(args);
		Normalization.delay(Long.parseLong(spec.option("delay-ms", "0")));
		try (Completion completion = new Completion(spec)) {
			AutoCloseable running = spec.variant().start(spec);
			try {
				completion.await(Duration.ofMinutes(10));
				if (Normalization.firstRecordNanos() == 0) {
					throw new IllegalStateException("The run's first record was never noted: no figures");
				}
				// Read while the variant's threads still run.
				System.out.println(ThreadCpu.busiest(8));
			}
			finally {
				running.close();
			}
			System.out.printf("RESULT seconds=%.4f records=%d cpu=%.3f window-cpu=%.3f%n", completion.seconds(),
					completion.records(), ProcessCpu.nanos() / 1e9, completion.cpuSeconds());
		}
		System.exit(0);
	}

}
