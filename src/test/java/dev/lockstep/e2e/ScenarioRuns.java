package dev.lockstep.e2e;

import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;

/**
 * How many times in a row each broker-fault scenario runs: once in {@code ./mvnw verify},
 * ten times under the {@code flake-gate} profile ({@code -Dlockstep.e2e.runs=10}), since
 * a scenario that fails one run in five is a defect, not noise.
 */
final class ScenarioRuns {

	private static final int RUNS = Integer.getInteger("lockstep.e2e.runs", 1);

	private ScenarioRuns() {
	}

	/** The runs of a scenario, numbered from 1: a {@code @MethodSource}. */
	static IntStream runs() {
		return IntStream.rangeClosed(1, RUNS);
	}

	/**
	 * The runs of a scenario on each of its clusters, as {@code (cluster, run)} arguments.
	 * @param clusters the rows the scenario runs on
	 */
	static Stream<Arguments> onEach(Stream<CompatibilityMatrixTests.Cluster> clusters) {
		return clusters.flatMap((cluster) -> runs().mapToObj((run) -> Arguments.of(cluster, run)));
	}

}
