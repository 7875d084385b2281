package dev.lockstep.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged sample app, run as separate processes the way the README tells a
 * newcomer to ({@code java -jar} on the executable jar as built): the demo on a fresh temporary broker (on every Kafka client line the sample
 * is built on), and the three commands one after
 * another from one directory, sharing the development broker's and registry's data.
 */
class SampleAppJarTests {

	private static final Duration TIMEOUT = Duration.ofMinutes(4);

	@ParameterizedTest(name = "{0}")
	@EnumSource(KafkaClients.class)
	void demoPrintsTheCookbooksThreeLinesOnEveryKafkaClientLine(KafkaClients clients, @TempDir Path workDir)
			throws Exception {
		// The development broker runs in the app's JVM from that line's own server jars.
		SampleAppProcess app = SampleAppProcess.startJar(clients, workDir, Map.of(), "demo");
		assertThat(app.awaitExit(TIMEOUT)).as(app::output).isZero();
		// Exactly what the README shows: no log line of the broker, the worker or Spring (the
		// JVM's own notice of options the environment gives it aside).
		assertThat(app.output().lines().filter((line) -> !line.startsWith("Picked up "))).as(app::output)
			.containsExactly("seeded 3", "committed 3", "verified 2 orders and 1 tombstone");
	}

	@Test
	void separateSeedTransformVerifyProcessesShareTheDevelopmentBrokerAndRegistry(@TempDir Path workDir)
			throws Exception {
		// Registry mode with the development registry: each process starts its own, on the
		// schemas (and ids) the previous one kept beside the broker's data.
		for (String[] step : new String[][] { { "seed", "seeded 3" }, { "transform", "committed 3" },
				{ "verify", "verified 2 orders and 1 tombstone" } }) {
			SampleAppProcess app = SampleAppProcess.startJar(KafkaClients.KAFKA_41, workDir, Map.of(), step[0],
					"--sample.registry=embedded");
			assertThat(app.awaitExit(TIMEOUT)).as(app::output).isZero();
			assertThat(app.output()).contains(step[1]);
		}
		assertThat(workDir.resolve(".lockstep/kafka")).isDirectory();
		assertThat(Files.readString(workDir.resolve(".lockstep/registry/schemas.json")))
			.contains("cookbook-orders-value").contains("cookbook-normalized-value");
	}

	@Test
	void secondProcessOnTheSameBrokerDirectoryFailsClearly(@TempDir Path workDir) throws Exception {
		SampleAppProcess service = SampleAppProcess.startJar(KafkaClients.KAFKA_41, workDir, Map.of(),
				"--server.port=0");
		try {
			service.awaitUntil("the development broker to start", TIMEOUT,
					() -> service.output().contains("Development Kafka broker on"));
			SampleAppProcess second = SampleAppProcess.startJar(KafkaClients.KAFKA_41, workDir, Map.of(), "seed");
			assertThat(second.awaitExit(TIMEOUT)).isEqualTo(1);
			assertThat(second.output()).contains("is in use by another process");
		}
		finally {
			service.stop(TIMEOUT);
		}
	}

}
