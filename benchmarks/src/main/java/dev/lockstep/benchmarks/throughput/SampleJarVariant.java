package dev.lockstep.benchmarks.throughput;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * Variant S: the sample app's executable jar as a service runs it, in a process of its
 * own with the same JVM options as every variant, configured by nothing but its own
 * {@code application.yml} (actuator, Prometheus, the OpenTelemetry bridge at Spring
 * Boot's default sampling, its servlet server) and the run's topics, group and
 * transactional id. The clock starts when its first output appears (the run's first
 * record), and the CPU measured is the jar's process.
 */
final class SampleJarVariant implements Variant.Runner {

	private static final Duration POLL = Duration.ofMillis(5);

	static Path jar() {
		return Path.of(System.getProperty("bench.sample-jar", "../sample-app/target/lockstep-sample-app.jar"))
			.toAbsolutePath()
			.normalize();
	}

	@Override
	public AutoCloseable start(RunSpec spec) throws Exception {
		Path jar = jar();
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException("No sample app jar at " + jar + "; build it with ./mvnw -pl sample-app -am package");
		}
		String worker = "--lockstep.workers.normalizer.";
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(VariantProcess.JVM_OPTIONS);
		String jfr = System.getProperty("bench.jfr", "");
		if (!jfr.isBlank()) {
			command.add("-XX:StartFlightRecording=settings=profile,filename=" + Path.of(jfr, spec.group() + "-jar.jfr"));
		}
		command.addAll(List.of("-jar", jar.toString(), "--spring.kafka.bootstrap-servers=" + spec.bootstrapServers(),
				worker + "source-topics=" + spec.input(), worker + "destination=" + spec.output(),
				worker + "group-id=" + spec.group(), worker + "transactional-id=" + spec.transactionalId(),
				"--server.port=0"));
		spec.options().forEach((name, value) -> command.add("--" + name + "=" + value));
		Path log = Files.createTempFile("lockstep-bench-sample-", ".log");
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		ProcessCpu.measure(process.toHandle());
		Thread firstOutput = new Thread(() -> awaitFirstOutput(spec), "first-output");
		firstOutput.setDaemon(true);
		firstOutput.start();
		return () -> {
			// Its CPU time, read while it still runs.
			ProcessCpu.nanos();
			firstOutput.interrupt();
			process.destroy();
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor();
				throw new IllegalStateException("The sample app did not stop within 60 s; see " + log);
			}
			Files.delete(log);
		};
	}

	/** The run's first record is the first output the jar writes. */
	private static void awaitFirstOutput(RunSpec spec) {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers()))) {
			List<TopicPartition> partitions = admin.describeTopics(List.of(spec.output()))
				.allTopicNames()
				.get()
				.get(spec.output())
				.partitions()
				.stream()
				.map((partition) -> new TopicPartition(spec.output(), partition.partition()))
				.toList();
			Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
			partitions.forEach((partition) -> latest.put(partition, OffsetSpec.latest()));
			while (admin.listOffsets(latest).all().get().values().stream().allMatch((offset) -> offset.offset() == 0)) {
				Thread.sleep(POLL.toMillis());
			}
			Normalization.noteFirstRecord();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not watch " + spec.output(), ex);
		}
	}

}
