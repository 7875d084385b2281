package dev.lockstep.benchmarks.throughput;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one benchmark run does: which variant, on which topics, how many input records it
 * must commit before it is done, and the variant's options (for example Lockstep's
 * concurrency). Passed to the run's own JVM as {@code --key=value} arguments.
 *
 * @param variant the variant
 * @param bootstrapServers the broker
 * @param input the input topic
 * @param output the output topic, fresh per run
 * @param group the consumer group (Kafka Streams' application id), fresh per run
 * @param records the input records to commit
 * @param warmupRecords the records committed before the measured window starts (0: it
 * starts at the first record)
 * @param options variant options
 */
record RunSpec(Variant variant, String bootstrapServers, String input, String output, String group, long records,
		long warmupRecords, Map<String, String> options) {

	/** The transactional id (or prefix) of this run: fresh per run, like the group. */
	String transactionalId() {
		return this.group + "-tx";
	}

	String option(String name, String defaultValue) {
		return this.options.getOrDefault(name, defaultValue);
	}

	List<String> toArgs() {
		List<String> args = new ArrayList<>(List.of("--variant=" + this.variant.name(),
				"--bootstrap-servers=" + this.bootstrapServers, "--input=" + this.input, "--output=" + this.output,
				"--group=" + this.group, "--records=" + this.records, "--warmup-records=" + this.warmupRecords));
		this.options.forEach((name, value) -> args.add("--option." + name + "=" + value));
		return args;
	}

	static RunSpec parse(String[] args) {
		Map<String, String> values = new LinkedHashMap<>();
		Map<String, String> options = new LinkedHashMap<>();
		for (String arg : args) {
			int equals = arg.indexOf('=');
			String name = arg.substring(2, equals);
			String value = arg.substring(equals + 1);
			if (name.startsWith("option.")) {
				options.put(name.substring("option.".length()), value);
			}
			else {
				values.put(name, value);
			}
		}
		return new RunSpec(Variant.valueOf(values.get("variant")), values.get("bootstrap-servers"),
				values.get("input"), values.get("output"), values.get("group"), Long.parseLong(values.get("records")),
				Long.parseLong(values.get("warmup-records")), options);
	}

}
