package dev.lockstep.benchmarks;

import java.util.Collection;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;

/**
 * Runs {@link RecordTracingBenchmarks} with JMH's GC profiler and prints, per case, the
 * time and the bytes allocated per record.
 */
public final class RecordTracingBenchmarkMain {

	private RecordTracingBenchmarkMain() {
	}

	public static void main(String[] args) throws RunnerException {
		Options options = JmhOptions.of(RecordTracingBenchmarks.class).addProfiler(GCProfiler.class).build();
		Collection<RunResult> results = new Runner(options).run();
		System.out.println();
		for (RunResult result : results) {
			String name = result.getParams().getBenchmark();
			name = name.substring(name.lastIndexOf('.') + 1);
			Result<?> time = result.getPrimaryResult();
			Result<?> allocated = result.getSecondaryResults().get("gc.alloc.rate.norm");
			System.out.printf("RESULT %-16s %8.1f ± %.1f ns/record %8.1f B/record%n", name, time.getScore(),
					time.getScoreError(), (allocated != null) ? allocated.getScore() : Double.NaN);
		}
	}

}
