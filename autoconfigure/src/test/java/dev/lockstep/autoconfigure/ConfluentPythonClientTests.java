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
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.server.EmbeddedSchemaRegistry;
import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.ValueTransformer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
 * {@code .ci/run} installs) writes Protobuf orders through a schema registry, which it
 * registers their schema with as it does with any registry (a base64 serialized
 * {@code FileDescriptorProto}); a Lockstep worker reads them into its generated class and
 * writes the normalized orders; Confluent's deserializer reads those. Through the embedded
 * registry and through Apicurio Registry, with auto-register on and off on both sides.
 * Skipped, saying why, where the client is not installed.
 */
@ExtendWith(SharedKafkaBroker.class)
class ConfluentPythonClientTests {

	private static final Path PYTHON = Path.of("/usr/bin/python3");

	private static final int ORDERS = 3_000;

	// With auto-register off Confluent's Python client 1.7 produced 3,000 orders in 134 s
	// through the embedded registry (1.6 s with it on; 20 s through Apicurio): fewer orders.
	private static final int ORDERS_LOOKED_UP = 300;

	private static KafkaBroker broker;

	private final RegistryWorkerFixture topics = new RegistryWorkerFixture(broker);

	@BeforeAll
	static void start(KafkaBroker shared) throws Exception {
		Assumptions.assumeTrue(
				Files.isExecutable(PYTHON) && run(PYTHON.toString(), "-c", "import confluent_kafka, google.protobuf, requests") == 0,
				"Confluent's Python client is not installed: apt-get install python3-confluent-kafka python3-protobuf "
						+ "python3-requests");
		broker = shared;
	}

	@ParameterizedTest(name = "auto-register {0}")
	@ValueSource(booleans = { true, false })
	void throughTheEmbeddedRegistry(boolean autoRegister, @TempDir Path dir) throws Exception {
		try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder().start()) {
			ordersConfluentsPythonClientWritesAreNormalizedExactlyOnceAndReadBackByIt(dir, registry.url(),
					autoRegister);
		}
	}

	@ParameterizedTest(name = "auto-register {0}")
	@ValueSource(booleans = { true, false })
	void throughApicurioRegistry(boolean autoRegister, @TempDir Path dir) throws Exception {
		try (ApicurioRegistry registry = ApicurioRegistry.start(dir)) {
			ordersConfluentsPythonClientWritesAreNormalizedExactlyOnceAndReadBackByIt(dir, registry.url(),
					autoRegister);
		}
	}

	/**
	 * With auto-register off on both sides, Confluent's client registers the schema of
	 * both topics first, as a deployment would, and Lockstep finds its output's there.
	 */
	private void ordersConfluentsPythonClientWritesAreNormalizedExactlyOnceAndReadBackByIt(Path dir, String registry,
			boolean autoRegister) throws Exception {
		Path script = dir.resolve("confluent_protobuf.py");
		try (InputStream in = getClass().getResourceAsStream("/interop/confluent_protobuf.py")) {
			Files.copy(in, script);
		}
		if (!autoRegister) {
			python(dir, script, registry, "register", this.topics.input, 0, autoRegister);
			python(dir, script, registry, "register", this.topics.output, 0, autoRegister);
		}
		int orders = autoRegister ? ORDERS : ORDERS_LOOKED_UP;
		Map<String, Object> properties = this.topics.properties(registry, "registry-protobuf", Order.class);
		properties.put("lockstep.registry.auto-register", Boolean.toString(autoRegister));
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(properties)
			.run()) {
			long started = System.nanoTime();
			python(dir, script, registry, "produce", this.topics.input, orders, autoRegister);
			long produced = System.nanoTime();
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
					.isEqualTo(orders));
			long committed = System.nanoTime();
			List<String> read = python(dir, script, registry, "consume", this.topics.output, orders, autoRegister);
			System.out.printf("CONFLUENT PYTHON %s auto-register %s: produced in %d ms, committed %d ms later, "
					+ "read back in %d ms%n", registry, autoRegister, (produced - started) / 1_000_000,
					(committed - produced) / 1_000_000, (System.nanoTime() - committed) / 1_000_000);
			List<String> expected = new ArrayList<>();
			for (int i = 1; i <= orders; i++) {
				expected.add("order-" + i + " o-" + i + " PAID " + i);
			}
			assertThat(read).containsExactlyInAnyOrderElementsOf(expected);
			// Lockstep wrote the id of its output subject's schema: Confluent's registration when
			// auto-register is off (found by the serialized descriptor), its own when on.
			long outputId = RegistryClient.builder(registry)
				.build()
				.latestSubjectVersion(this.topics.output + "-value")
				.id();
			assertThat(this.topics.readCommitted(this.topics.output, orders))
				.allSatisfy((record) -> assertThat(WireFormat.unframe(record.value(), 1_000).schemaId())
					.isEqualTo(outputId));
		}
	}

	/** Run the script; its output lines, or a failure with them. */
	private static List<String> python(Path dir, Path script, String registry, String mode, String topic, int count,
			boolean autoRegister) throws IOException, InterruptedException {
		Path output = dir.resolve(mode + "-" + topic + ".log");
		ProcessBuilder builder = new ProcessBuilder(PYTHON.toString(), script.toString(), mode,
				broker.bootstrapServers(), registry, topic, Integer.toString(count))
			.redirectErrorStream(true)
			.redirectOutput(output.toFile());
		builder.environment().put("AUTO_REGISTER", Boolean.toString(autoRegister));
		Process process = builder.start();
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
