package dev.lockstep.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The JMH settings every benchmark main here runs with: average time in nanoseconds,
 * {@code -Dforks} forks (2), five warm-up and five measured iterations of a second, the
 * same heap and collector.
 */
final class JmhOptions {

	private JmhOptions() {
	}

	static ChainedOptionsBuilder of(Class<?>... benchmarks) {
		ChainedOptionsBuilder options = new OptionsBuilder();
		for (Class<?> benchmark : benchmarks) {
			options.include(benchmark.getName() + ".*");
		}
		return options.mode(Mode.AverageTime)
			.timeUnit(TimeUnit.NANOSECONDS)
			.forks(Integer.getInteger("forks", 2))
			.warmupIterations(5)
			.warmupTime(TimeValue.seconds(1))
			.measurementIterations(5)
			.measurementTime(TimeValue.seconds(1))
			.jvmArgs("-Xmx512m", "-XX:+UseParallelGC");
	}

}
