package dev.lockstep.benchmarks.throughput;

import java.util.ArrayList;
import java.util.List;

/**
 * A run as Spring Boot command-line arguments: the {@code bench.*} values the YAML files
 * refer to, and the run's options as further arguments (for example
 * {@code --lockstep.workers.bench.concurrency=2}).
 */
final class SpringArguments {

	private SpringArguments() {
	}

	static String[] of(RunSpec spec) {
		List<String> args = new ArrayList<>(List.of("--spring.kafka.bootstrap-servers=" + spec.bootstrapServers(),
				"--bench.input=" + spec.input(), "--bench.output=" + spec.output(), "--bench.group=" + spec.group(),
				"--bench.transactional-id=" + spec.transactionalId()));
		spec.options().forEach((name, value) -> {
			if (name.equals("profile")) {
				args.add("--spring.profiles.active=" + value);
			}
			else {
				args.add("--" + name + "=" + value);
			}
		});
		return args.toArray(String[]::new);
	}

}
