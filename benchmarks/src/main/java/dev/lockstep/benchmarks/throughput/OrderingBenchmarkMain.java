package dev.lockstep.benchmarks.throughput;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.lockstep.benchmarks.throughput.VariantProcess.Measurement;
import dev.lockstep.benchmarks.BenchmarkBroker;
import dev.lockstep.test.kafka.KafkaBrokerProcess;

/**
 * The ordering harness. The slow-processor workload: every record waits 5 ms as for a
 * remote call, one partition, 10,000 customer keys; Lockstep under partition ordering and
 * under key ordering at several max-in-flight, with a blocking processor and with the
 * asynchronous one (a stage completed after the wait, no thread held), Confluent's
 * Parallel Consumer in KEY order (exactly-once and at-least-once) and Kafka Streams
 * exactly_once_v2. The fast workload: the throughput harness's order normalization on
 * one partition, Lockstep under partition, key and none ordering. One broker (its own process), every run in its own JVM, runs
 * alternated, each output verified (each order exactly once, each customer's orders in
 * input order). Prints a table per workload and a {@code RATIOS} line each, and draws
 * both as an SVG chart.
 *
 * <p>
 * System properties: {@code bench.runs} (3), {@code bench.delay-ms} (5),
 * {@code bench.keys} (10000), {@code bench.slow-records} (50000; the variants that
 * process one record at a time get {@code bench.serial-records}, 2000),
 * {@code bench.fast-records} (500000), {@code bench.pc-concurrency} (256),
 * {@code bench.workloads} (slow,fast), {@code bench.chart} (ordering.svg; drawn when both
 * workloads run).
 */
public final class OrderingBenchmarkMain {

	private static final int RUNS = Integer.getInteger("bench.runs", 3);

	private static final long DELAY_MS = Long.getLong("bench.delay-ms", 5);

	private static final int KEYS = Integer.getInteger("bench.keys", 10_000);

	private static final long SLOW_RECORDS = Long.getLong("bench.slow-records", 50_000);

	private static final long SERIAL_RECORDS = Long.getLong("bench.serial-records", 2_000);

	private static final long FAST_RECORDS = Long.getLong("bench.fast-records", 500_000);

	private static final List<String> WORKLOADS = List.of(System.getProperty("bench.workloads", "slow,fast").split(","));

	private static final String PC_CONCURRENCY = System.getProperty("bench.pc-concurrency", "256");

	private static final String MAX_IN_FLIGHT = "lockstep.workers.bench.max-in-flight";

	private final OrderWorkload workload;

	private final String bootstrapServers;

	private int runNumber;

	private OrderingBenchmarkMain(String bootstrapServers, OrderWorkload workload) {
		this.bootstrapServers = bootstrapServers;
		this.workload = workload;
	}

	/**
	 * One line of a workload's table: a variant with its options, and how many records
	 * each of its runs processes.
	 */
	private record Contender(String name, Variant variant, Map<String, String> options, boolean serial) {

	}

	public static void main(String[] args) throws Exception {
		System.out.printf("BENCH ordering: %d runs, slow workload %d ms per record over %d keys (%d records, %d for "
				+ "one-at-a-time variants), fast workload %d records, %d cores, Java %s, variant JVMs %s%n", RUNS,
				DELAY_MS, KEYS, SLOW_RECORDS, SERIAL_RECORDS, FAST_RECORDS, Runtime.getRuntime().availableProcessors(),
				System.getProperty("java.version"), VariantProcess.JVM_OPTIONS);
		Map<String, String> slow = Map.of("delay-ms", Long.toString(DELAY_MS));
		List<Contender> slowContenders = List.of(
				new Contender("lockstep partition", Variant.E, slow, true),
				new Contender("lockstep key, 64 in flight", Variant.E_KEY, with(slow, MAX_IN_FLIGHT, "64"), false),
				new Contender("lockstep key, 256 in flight", Variant.E_KEY, with(slow, MAX_IN_FLIGHT, "256"), false),
				new Contender("lockstep key, 1000 in flight", Variant.E_KEY, with(slow, MAX_IN_FLIGHT, "1000"), false),
				new Contender("lockstep key async, 1000 in flight", Variant.E_ASYNC, with(slow, MAX_IN_FLIGHT, "1000"),
						false),
				new Contender("parallel consumer EOS, " + PC_CONCURRENCY, Variant.PC_EOS,
						with(slow, "max-concurrency", PC_CONCURRENCY), false),
				new Contender("parallel consumer ALO, " + PC_CONCURRENCY, Variant.PC_ALO,
						with(slow, "max-concurrency", PC_CONCURRENCY), false),
				new Contender("kafka streams EOS-v2", Variant.B, slow, true));
		List<Contender> fastContenders = List.of(new Contender("lockstep partition", Variant.E, Map.of(), false),
				new Contender("lockstep key, 256 in flight", Variant.E_KEY, Map.of(), false),
				new Contender("lockstep none, 256 in flight", Variant.E_KEY,
						Map.of("lockstep.workers.bench.ordering", "none"), false));
		try (KafkaBrokerProcess broker = BenchmarkBroker.start();
				OrderWorkload workload = new OrderWorkload(broker.bootstrapServers())) {
			OrderingBenchmarkMain harness = new OrderingBenchmarkMain(broker.bootstrapServers(), workload);
			workload.seed("fast", 1, FAST_RECORDS);
			// One run, not counted, so that no variant meets a cold broker.
			harness.run(Variant.P, "fast", FAST_RECORDS, Map.of());
			Map<String, Double> slowRates = null;
			Map<String, Double> fastRates = null;
			if (WORKLOADS.contains("slow")) {
				workload.seed("slow", 1, SLOW_RECORDS, KEYS, TraceInput.NONE);
				workload.seed("slow-serial", 1, SERIAL_RECORDS, KEYS, TraceInput.NONE);
				slowRates = harness.compare("slow", slowContenders);
				printSlowRatios(slowRates);
			}
			if (WORKLOADS.contains("fast")) {
				fastRates = harness.compare("fast", fastContenders);
				System.out.printf("RATIOS fast key/partition=%.3f none/partition=%.3f%n",
						fastRates.get("lockstep key, 256 in flight") / fastRates.get("lockstep partition"),
						fastRates.get("lockstep none, 256 in flight") / fastRates.get("lockstep partition"));
			}
			if (slowRates != null && fastRates != null) {
				Path chart = Path.of(System.getProperty("bench.chart", "ordering.svg")).toAbsolutePath();
				new OrderingChart().write(chart, "Slow processor: " + DELAY_MS + " ms per record, 1 partition, " + KEYS
						+ " keys", slowRates, "Fast processor: order normalization, 1 partition", fastRates);
				System.out.println("CHART " + chart);
			}
		}
	}

	private static void printSlowRatios(Map<String, Double> slowRates) {
		double key = slowRates.get("lockstep key, 256 in flight");
		double bestKey = slowRates.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().startsWith("lockstep key"))
			.mapToDouble(Map.Entry::getValue)
			.max()
			.orElseThrow();
		String pc = ", " + PC_CONCURRENCY;
		double async = slowRates.get("lockstep key async, 1000 in flight");
		System.out.printf("RATIOS slow key256/pc-eos=%.3f key256/pc-alo=%.3f key256/partition=%.1f "
				+ "key256/streams=%.1f best-key/pc-eos=%.3f best-key/pc-alo=%.3f best-key/partition=%.1f "
				+ "async1000/pc-eos=%.3f%n",
				key / slowRates.get("parallel consumer EOS" + pc), key / slowRates.get("parallel consumer ALO" + pc),
				key / slowRates.get("lockstep partition"), key / slowRates.get("kafka streams EOS-v2"),
				bestKey / slowRates.get("parallel consumer EOS" + pc),
				bestKey / slowRates.get("parallel consumer ALO" + pc), bestKey / slowRates.get("lockstep partition"),
				async / slowRates.get("parallel consumer EOS" + pc));
	}

	/**
	 * Every contender of a workload, alternated run by run, each round in a rotated order;
	 * prints the table, returns the medians (table rows in the contenders' order).
	 */
	private Map<String, Double> compare(String workload, List<Contender> contenders) throws Exception {
		Map<String, List<Double>> rates = new LinkedHashMap<>();
		for (int round = 1; round <= RUNS; round++) {
			// Each round starts one contender further on, so that none always runs after the same one.
			for (int next = 0; next < contenders.size(); next++) {
				Contender contender = contenders.get((round - 1 + next) % contenders.size());
				String input = (contender.serial() && workload.equals("slow")) ? "slow-serial" : workload;
				long records = input.equals("slow-serial") ? SERIAL_RECORDS
						: workload.equals("slow") ? SLOW_RECORDS : FAST_RECORDS;
				Measurement measurement = run(contender.variant(), input, records, contender.options());
				double rate = measurement.recordsPerSecond();
				rates.computeIfAbsent(contender.name(), (name) -> new ArrayList<>()).add(rate);
				System.out.printf("RUN %s round=%d %-36s %10.0f records/s (%d records, %.1fs, cpu %.1fs)%n", workload,
						round, contender.name(), rate, records, measurement.seconds(), measurement.windowCpuSeconds());
			}
		}
		System.out.printf("%nORDERING %s workload, medians of %d runs%n", workload, RUNS);
		System.out.printf("%-36s %10s %23s%n", "variant", "records/s", "(min - max)");
		Map<String, Double> medians = new LinkedHashMap<>();
		rates.forEach((name, values) -> {
			double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
			double median = (sorted.length % 2 == 1) ? sorted[sorted.length / 2]
					: (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
			medians.put(name, median);
			System.out.printf("%-36s %10.0f %10.0f - %10.0f%n", name, median, sorted[0], sorted[sorted.length - 1]);
		});
		System.out.println();
		return medians;
	}

	private Measurement run(Variant variant, String input, long records, Map<String, String> options)
			throws Exception {
		int run = ++this.runNumber;
		String output = "ordering-out-" + run;
		this.workload.createTopic(output, 1);
		Map<String, String> all = new LinkedHashMap<>(variant.defaultOptions());
		all.putAll(options);
		Measurement measurement = VariantProcess.start(new RunSpec(variant, this.bootstrapServers, input, output,
				"ordering-" + run + "-" + variant.label(), records, 0, all)).await();
		this.workload.verify(output, records);
		this.workload.deleteTopic(output);
		return measurement;
	}

	private static Map<String, String> with(Map<String, String> options, String name, String value) {
		Map<String, String> all = new LinkedHashMap<>(options);
		all.put(name, value);
		return all;
	}

}
