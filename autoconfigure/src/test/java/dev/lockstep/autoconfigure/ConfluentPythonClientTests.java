package dev.lockstep.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.lockstep.autoconfigure.interop.test.Order;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.server.EmbeddedSchemaRegistry;
import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.ValueTransformer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Confluent's own Python client (Debian's {@code python3-confluent-kafka}, which
 * {@code .ci/run} installs) writes Protobuf orders through the embedded registry, which it
 * registers their schema with as it does with any registry (a base64 serialized
 * {@code FileDescriptorProto}); a Lockstep worker reads them into its generated class and
 * writes the normalized orders; Confluent's deserializer reads those. Skipped, saying why,
 * where the client is not installed.
 */
@ExtendWith(SharedKafkaBroker.class)
class ConfluentPythonClientTests {

	private static final Path PYTHON = Path.of("/usr/bin/python3");

	private static final int ORDERS = 3_000;

	private static KafkaBroker broker;

	private final RegistryWorkerFixture topics = new RegistryWorkerFixture(broker);

	@BeforeAll
	static void start(KafkaBroker shared) throws Exception {
		Assumptions.assumeTrue(
				Files.isExecutable(PYTHON) && run(PYTHON.toString(), "-c", "import confluent_kafka") == 0,
				"Confluent's Python client is not installed: apt-get install python3-confluent-kafka python3-protobuf");
		broker = shared;
	}

	@Test
	void throughTheEmbeddedRegistry(@TempDir Path dir) throws Exception {
		try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder().start()) {
			ordersConfluentsPythonClientWritesAreNormalizedExactlyOnceAndReadBackByIt(dir, registry.url());
		}
	}

	@Test
	void throughApicurioRegistry(@TempDir Path dir) throws Exception {
		try (ApicurioRegistry registry = ApicurioRegistry.start(dir)) {
			ordersConfluentsPythonClientWritesAreNormalizedExactlyOnceAndReadBackByIt(dir, registry.url());
		}
	}

	private void ordersConfluentsPythonClientWritesAreNormalizedExactlyOnceAndReadBackByIt(Path dir, String registry)
			throws Exception {
		Path script = dir.resolve("confluent_protobuf.py");
		try (InputStream in = getClass().getResourceAsStream("/interop/confluent_protobuf.py")) {
			Files.copy(in, script);
		}
		Map<String, Object> properties = this.topics.properties(registry, "registry-protobuf", Order.class);
		properties.put("lockstep.registry.auto-register", "true");
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(properties)
			.run()) {
			python(dir, script, registry, "produce", this.topics.input, ORDERS);
			// What that client registered: the descriptor, serialized and base64 encoded, not .proto text.
			RegistrySchema registered = RegistryClient.builder(registry)
				.build()
				.latestSubjectVersion(this.topics.input + "-value")
				.schema();
			assertThat(registered.type()).isEqualTo(RegistrySchema.PROTOBUF);
			assertThat(registered.text()).matches("[A-Za-z0-9+/]+=*");
			LockstepWorkers workers = context.getBean(LockstepWorkers.class);
			await().atMost(Duration.ofSeconds(120))
				.untilAsserted(() -> assertThat(workers.worker("normalizer").state().committedRecords())
					.as(() -> workers.worker("normalizer").state().toString())
					.isEqualTo(ORDERS));
			List<String> read = python(dir, script, registry, "consume", this.topics.output, ORDERS);
			List<String> expected = new ArrayList<>();
			for (int i = 1; i <= ORDERS; i++) {
				expected.add("order-" + i + " o-" + i + " PAID " + i);
			}
			assertThat(read).containsExactlyInAnyOrderElementsOf(expected);
		}
	}

	/** Run the script; its output lines, or a failure with them. */
	private static List<String> python(Path dir, Path script, String registry, String mode, String topic, int count)
			throws IOException, InterruptedException {
		Path output = dir.resolve(mode + ".log");
		Process process = new ProcessBuilder(PYTHON.toString(), script.toString(), mode, broker.bootstrapServers(),
				registry, topic, Integer.toString(count))
			.redirectErrorStream(true)
			.redirectOutput(output.toFile())
			.start();
		boolean exited = process.waitFor(3, TimeUnit.MINUTES);
		if (!exited) {
			process.destroyForcibly().waitFor();
		}
		List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
		assertThat(exited && process.exitValue() == 0)
			.as(() -> "python " + mode + " failed:\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 40),
					lines.size())))
			.isTrue();
		return lines;
	}

	private static int run(String... command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		process.getInputStream().readAllBytes();
		return process.waitFor();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		@Bean
		ValueTransformer<Order, Order> normalizer() {
			return (order) -> order.toBuilder().setStatus(order.getStatus().toUpperCase(Locale.ROOT)).build();
		}

	}

}
