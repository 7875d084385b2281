package dev.lockstep.benchmarks;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;

/**
 * Runs {@link CodecBenchmarks}, {@link JsonCodecBenchmarks} and
 * {@link ProtobufCodecBenchmarks} in one JMH run and prints each result and the ratios of
 * Lockstep's serdes to the raw Avro, Jackson and protobuf-java baselines measured in that
 * same run.
 */
public final class CodecBenchmarkMain {

	private CodecBenchmarkMain() {
	}

	public static void main(String[] args) throws RunnerException {
		Options options = JmhOptions.of(CodecBenchmarks.class, JsonCodecBenchmarks.class, ProtobufCodecBenchmarks.class)
			.build();
		Collection<RunResult> results = new Runner(options).run();
		Map<String, Double> scores = new HashMap<>();
		System.out.println();
		for (RunResult result : results) {
			String name = result.getParams().getBenchmark();
			name = name.substring(name.lastIndexOf('.') + 1);
			Result<?> primary = result.getPrimaryResult();
			scores.put(name, primary.getScore());
			System.out.printf("RESULT %-28s %8.1f ± %.1f ns/op%n", name, primary.getScore(), primary.getScoreError());
		}
		System.out.printf("RATIOS serialize/raw-encode=%.3f (target <= 1.15) deserialize/raw-decode=%.3f (target <= 1.10)%n",
				scores.get("lockstepSerialize") / scores.get("rawEncode"),
				scores.get("lockstepDeserialize") / scores.get("rawDecode"));
		System.out.printf("RATIOS json-serialize/jackson-write=%.3f json-deserialize/jackson-read=%.3f "
				+ "(validation against the schema included)%n",
				scores.get("lockstepJsonSerialize") / scores.get("jacksonWrite"),
				scores.get("lockstepJsonDeserialize") / scores.get("jacksonRead"));
		System.out.printf("RATIOS protobuf-serialize/protobuf-write=%.3f protobuf-deserialize/protobuf-read=%.3f "
				+ "(writer schema name checked on read)%n",
				scores.get("lockstepProtobufSerialize") / scores.get("protobufWrite"),
				scores.get("lockstepProtobufDeserialize") / scores.get("protobufRead"));
	}

}
