package dev.lockstep.benchmarks;

import java.util.List;
import java.util.Map;

import dev.lockstep.test.kafka.KafkaBrokerProcess;

/**
 * The broker every benchmark measures against: a separate process compiling fully, as a
 * deployed broker does (test brokers stop at the C1 compiler to save CPU).
 */
public final class BenchmarkBroker {

	/** The broker process's JVM options. */
	public static final List<String> JVM_OPTIONS = List.of("-Xmx512m", "-XX:+UseSerialGC");

	private BenchmarkBroker() {
	}

	/**
	 * Start the broker.
	 * @return the broker process; close it when the benchmark is done
	 */
	public static KafkaBrokerProcess start() {
		return KafkaBrokerProcess.start(Map.of(), JVM_OPTIONS);
	}

}
