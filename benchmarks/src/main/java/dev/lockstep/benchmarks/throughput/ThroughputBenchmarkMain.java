package dev.lockstep.benchmarks.throughput;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import dev.lockstep.benchmarks.throughput.VariantProcess.Measurement;
import dev.lockstep.benchmarks.BenchmarkBroker;
import dev.lockstep.test.kafka.KafkaBrokerProcess;

/**
 * The worker throughput harness: one Kafka broker (its own process), the sample's orders
 * pre-seeded into topics of 1 and 4 partitions, and every variant run in its own JVM,
 * alternated run by run, each with a fresh group and output topic and its output
 * verified. Prints a table per partition count, the {@code RATIOS} of Lockstep to the
 * others (medians), then how Lockstep's cost grows with partitions, concurrency and the
 * transaction interval.
 *
 * <p>
 * System properties: {@code bench.records} (500000), {@code bench.runs} (5),
 * {@code bench.variants} (A,B,C,D,E,E_TUNED,F,P), {@code bench.partitions} (1,4),
 * {@code bench.latency-seconds} (20; 0 measures throughput only), {@code bench.scaling-runs} (3),
 * {@code bench.scaling} (true), {@code bench.jfr} (a directory: record every run with JFR),
 * {@code bench.warmup-records} (0: measure from each run's first record; else from the
 * group's commit of that many records, the same for every variant).
 */
public final class ThroughputBenchmarkMain {

	private static final long RECORDS = Long.getLong("bench.records", 500_000);

	private static final long WARMUP_RECORDS = Long.getLong("bench.warmup-records", 0);

	private static final int RUNS = Integer.getInteger("bench.runs", 5);

	private static final List<Variant> VARIANTS = Arrays
		.stream(System.getProperty("bench.variants", "A,B,C,D,E,E_TUNED,F,P").split(","))
		.map(Variant::valueOf)
		.toList();

	private static final List<Integer> PARTITIONS = Arrays
		.stream(System.getProperty("bench.partitions", "1,4").split(","))
		.map(Integer::valueOf)
		.toList();

	private static final int LATENCY_SECONDS = Integer.getInteger("bench.latency-seconds", 20);

	private static final int SCALING_RUNS = Integer.getInteger("bench.scaling-runs", 3);

	private static final String CONCURRENCY = "lockstep.workers.bench.concurrency";

	private static final String MAX_INTERVAL = "lockstep.workers.bench.transaction.max-interval";

	private final OrderWorkload workload;

	private final String bootstrapServers;

	private final Set<String> seeded = new HashSet<>();

	private int runNumber;

	private ThroughputBenchmarkMain(String bootstrapServers, OrderWorkload workload) {
		this.bootstrapServers = bootstrapServers;
		this.workload = workload;
	}

	public static void main(String[] args) throws Exception {
		System.out.printf("BENCH %d records (measured after %d), %d runs per variant, partitions %s, %d cores, Java %s, variant JVMs %s%n",
				RECORDS, WARMUP_RECORDS, RUNS, PARTITIONS, Runtime.getRuntime().availableProcessors(),
				System.getProperty("java.version"), VariantProcess.JVM_OPTIONS);
		try (KafkaBrokerProcess broker = BenchmarkBroker.start();
				OrderWorkload workload = new OrderWorkload(broker.bootstrapServers())) {
			ThroughputBenchmarkMain harness = new ThroughputBenchmarkMain(broker.bootstrapServers(), workload);
			List<String> ratios = new ArrayList<>();
			for (int partitions : PARTITIONS) {
				ratios.add(harness.compare(partitions));
			}
			if (Boolean.parseBoolean(System.getProperty("bench.scaling", "true"))) {
				harness.scaling();
			}
			ratios.forEach(System.out::println);
		}
	}

	/** Every variant on one partition count; prints the table and returns the RATIOS line. */
	private String compare(int partitions) throws Exception {
		// One run, not counted, so that no variant meets a cold broker.
		throughput(Variant.P, seed(partitions, TraceInput.NONE), partitions, Map.of());
		Map<Variant, List<Measurement>> results = new EnumMap<>(Variant.class);
		for (int round = 1; round <= RUNS; round++) {
			for (Variant variant : VARIANTS) {
				Measurement measurement = throughput(variant, seed(partitions, variant.traceInput()), partitions,
						Map.of());
				results.computeIfAbsent(variant, (key) -> new ArrayList<>()).add(measurement);
				System.out.printf("RUN partitions=%d round=%d %-14s %9.0f records/s wall=%.1fs cpu=%.1fs (%.1fs in run)%n",
						partitions, round, variant.label(), measurement.recordsPerSecond(), measurement.wallSeconds(),
						measurement.cpuSeconds(), measurement.windowCpuSeconds());
			}
		}
		// Latency at one fixed rate for all: half of what Kafka Streams sustained above. A
		// variant slower than that falls behind, and its latency shows it.
		double rate = results.containsKey(Variant.B) ? recordsPerSecond(results.get(Variant.B)) / 2 : 5_000;
		Map<Variant, double[]> latencies = new EnumMap<>(Variant.class);
		for (Variant variant : VARIANTS) {
			// bench.latency-seconds=0: throughput only.
			latencies.put(variant, (LATENCY_SECONDS > 0) ? latency(variant, partitions, rate, Map.of())
					: new double[] { Double.NaN, Double.NaN });
		}
		System.out.printf("%nTHROUGHPUT partitions=%d, %d records, medians of %d runs; latency at %.0f records/s%n",
				partitions, RECORDS, RUNS, rate);
		System.out.printf("%-22s %10s %21s %8s %7s %11s %8s %8s%n", "variant", "records/s", "(min - max)", "wall s",
				"CPU s", "CPU us/rec", "p50 ms", "p99 ms");
		results.forEach((variant, runs) -> {
			double[] perSecond = runs.stream().mapToDouble(Measurement::recordsPerSecond).sorted().toArray();
			double[] latency = latencies.get(variant);
			System.out.printf("%-22s %10.0f %10.0f - %8.0f %8.1f %7.1f %11.2f %8.1f %8.1f%n",
					variant.name() + " " + variant.label(), median(perSecond), perSecond[0],
					perSecond[perSecond.length - 1], median(runs, Measurement::wallSeconds),
					median(runs, Measurement::cpuSeconds), median(runs, Measurement::cpuMicrosPerRecord),
					latency[0], latency[1]);
		});
		System.out.println();
		Map<Variant, Double> medians = new EnumMap<>(Variant.class);
		results.forEach((variant, runs) -> medians.put(variant, recordsPerSecond(runs)));
		return ratios(partitions, medians, latencies);
	}

	private static String ratios(int partitions, Map<Variant, Double> medians, Map<Variant, double[]> latencies) {
		List<String> ratios = new ArrayList<>();
		Double lockstep = medians.get(Variant.E);
		if (lockstep != null) {
			Map<String, Variant> against = new LinkedHashMap<>();
			against.put("streams", Variant.B);
			against.put("spring", Variant.C);
			against.put("raw", Variant.A);
			against.put("best-eos", Variant.F);
			against.put("pipe", Variant.P);
			against.forEach((name, variant) -> ratio(ratios, "lockstep/" + name, lockstep, medians.get(variant)));
			Stream
				.of(Variant.E_METRICS, Variant.E_TRACE0, Variant.E_TRACE10, Variant.E_TRACE100, Variant.E_HEADERS,
						Variant.E_PARENT_00, Variant.E_PARENT_01, Variant.E_PARENT_01_LINK)
				.forEach((variant) -> ratio(ratios, variant.label() + "/lockstep", medians.get(variant), lockstep));
		}
		// Tracing's own cost on inputs that carry a traceparent: against the same inputs untraced.
		Stream.of(Variant.E_PARENT_00, Variant.E_PARENT_01, Variant.E_PARENT_01_LINK)
			.forEach((variant) -> ratio(ratios, variant.label() + "/lockstep-headers", medians.get(variant),
					medians.get(Variant.E_HEADERS)));
		// What carrying the header costs Kafka Streams, and Lockstep against it on the same inputs.
		ratio(ratios, "streams-headers/streams", medians.get(Variant.B_HEADERS), medians.get(Variant.B));
		Stream.of(Variant.E_HEADERS, Variant.E_PARENT_00, Variant.E_PARENT_01, Variant.E_PARENT_01_LINK)
			.forEach((variant) -> ratio(ratios, variant.label() + "/streams-headers", medians.get(variant),
					medians.get(Variant.B_HEADERS)));
		ratio(ratios, "sample/streams", medians.get(Variant.S), medians.get(Variant.B));
		if (latencies.containsKey(Variant.E) && latencies.containsKey(Variant.B)) {
			ratio(ratios, "p99 lockstep/streams", latencies.get(Variant.E)[1], latencies.get(Variant.B)[1]);
		}
		return "RATIOS partitions=" + partitions + " "
				+ (ratios.isEmpty() ? "(none: no variant ran beside its baseline)" : String.join(" ", ratios));
	}

	// A ratio where both of its variants ran.
	private static void ratio(List<String> ratios, String name, Double variant, Double baseline) {
		if (variant != null && baseline != null) {
			ratios.add(String.format("%s=%.3f", name, variant / baseline));
		}
	}

	/** Lockstep (default settings) across partitions, concurrency and transaction interval. */
	private void scaling() throws Exception {
		System.out.printf("SCALING Lockstep worker, %d records, medians of %d runs%n", RECORDS, SCALING_RUNS);
		System.out.printf("%-11s %-12s %10s %7s %11s%n", "partitions", "concurrency", "records/s", "CPU s", "CPU us/rec");
		Map<Integer, String> inputs = new HashMap<>();
		for (int partitions : List.of(1, 4, 8)) {
			inputs.put(partitions, seed(partitions, TraceInput.NONE));
			for (int concurrency : List.of(1, 2)) {
				List<Measurement> runs = new ArrayList<>();
				for (int run = 0; run < SCALING_RUNS; run++) {
					runs.add(throughput(Variant.E, inputs.get(partitions), partitions,
							Map.of(CONCURRENCY, Integer.toString(concurrency))));
				}
				System.out.printf("%-11d %-12d %10.0f %7.1f %11.2f%n", partitions, concurrency, recordsPerSecond(runs),
						median(runs, Measurement::cpuSeconds), median(runs, Measurement::cpuMicrosPerRecord));
			}
		}
		// The transaction interval trades latency for throughput; latency at a rate all keep up with.
		Map<String, List<Measurement>> byInterval = new LinkedHashMap<>();
		for (String interval : List.of("10ms", "100ms", "1000ms")) {
			for (int run = 0; run < SCALING_RUNS; run++) {
				byInterval.computeIfAbsent(interval, (key) -> new ArrayList<>())
					.add(throughput(Variant.E, inputs.get(4), 4, Map.of(MAX_INTERVAL, interval)));
			}
		}
		double rate = byInterval.values().stream().mapToDouble(ThroughputBenchmarkMain::recordsPerSecond).min().orElse(0) / 2;
		System.out.printf("%nINTERVAL Lockstep worker, 4 partitions; latency at %.0f records/s%n", rate);
		System.out.printf("%-13s %10s %7s %8s %8s%n", "max-interval", "records/s", "CPU s", "p50 ms", "p99 ms");
		for (Map.Entry<String, List<Measurement>> entry : byInterval.entrySet()) {
			double[] latency = latency(Variant.E, 4, rate, Map.of(MAX_INTERVAL, entry.getKey()));
			System.out.printf("%-13s %10.0f %7.1f %8.1f %8.1f%n", entry.getKey(), recordsPerSecond(entry.getValue()),
					median(entry.getValue(), Measurement::cpuSeconds), latency[0], latency[1]);
		}
		System.out.println();
	}

	private String seed(int partitions, TraceInput trace) throws Exception {
		String input = "orders-p" + partitions + trace.topicSuffix();
		if (!this.seeded.contains(input)) {
			this.workload.seed(input, partitions, RECORDS, 0, trace);
			this.seeded.add(input);
		}
		return input;
	}

	private Measurement throughput(Variant variant, String input, int partitions, Map<String, String> options)
			throws Exception {
		int run = ++this.runNumber;
		String output = "out-" + run;
		this.workload.createTopic(output, partitions);
		Measurement measurement = VariantProcess.start(spec(variant, input, output, run, RECORDS, WARMUP_RECORDS, options)).await();
		this.workload.verify(output, RECORDS);
		this.workload.deleteTopic(output);
		return measurement;
	}

	private double[] latency(Variant variant, int partitions, double rate, Map<String, String> options)
			throws Exception {
		int run = ++this.runNumber;
		String input = "latency-in-" + run;
		String output = "latency-out-" + run;
		this.workload.createTopic(input, partitions);
		this.workload.createTopic(output, partitions);
		long records = (long) (rate * LATENCY_SECONDS);
		RunSpec spec = spec(variant, input, output, run, records, 0, options);
		VariantProcess process = VariantProcess.start(spec);
		long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
		while (!this.workload.groupStable(spec.group())) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(variant.label() + " never joined its group");
			}
			Thread.sleep(100);
		}
		double[] percentiles = new LatencyProbe(this.workload).measure(input, output, records, rate,
				variant.traceInput());
		process.await();
		this.workload.verify(output, records);
		this.workload.deleteTopic(input);
		this.workload.deleteTopic(output);
		System.out.printf("LATENCY partitions=%d %-14s %s rate=%.0f/s p50=%.1fms p99=%.1fms%n", partitions,
				variant.label(), options, rate, percentiles[0], percentiles[1]);
		return percentiles;
	}

	private RunSpec spec(Variant variant, String input, String output, int run, long records, long warmupRecords,
			Map<String, String> options) {
		Map<String, String> all = new LinkedHashMap<>(variant.defaultOptions());
		all.putAll(options);
		return new RunSpec(variant, this.bootstrapServers, input, output, "bench-" + run + "-" + variant.label(),
				records, warmupRecords, all);
	}

	private static double recordsPerSecond(List<Measurement> runs) {
		return median(runs.stream().mapToDouble(Measurement::recordsPerSecond).sorted().toArray());
	}

	private static double median(List<Measurement> runs, ToDoubleFunction<Measurement> value) {
		return median(runs.stream().mapToDouble(value).sorted().toArray());
	}

	private static double median(double[] sorted) {
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

}
