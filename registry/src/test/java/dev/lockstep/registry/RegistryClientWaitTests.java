package dev.lockstep.registry;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The registry client's worst-case wait, as start-up checks compute it, is what a registry
 * that never answers costs.
 */
class RegistryClientWaitTests {

	@Test
	void longestWaitIsAttemptsTimesUrlsTimesTimeoutPlusBackoffCeilings() {
		assertThat(RegistryClient.builder("http://127.0.0.1:1").build().longestWait())
			.isEqualTo(Duration.ofMillis(3 * 2_000 + 100 + 200));
		assertThat(RegistryClient.builder("http://127.0.0.1:1", "http://127.0.0.1:2")
			.timeout(Duration.ofSeconds(2))
			.build()
			.longestWait()).isEqualTo(Duration.ofMillis(3 * 2 * 2_000 + 100 + 200));
		assertThat(RegistryClient.builder("http://127.0.0.1:1")
			.timeout(Duration.ofSeconds(1))
			.retries(5)
			.backoff(Duration.ofMillis(300), Duration.ofSeconds(1))
			.build()
			.longestWait()).isEqualTo(Duration.ofMillis(6 * 1_000 + 300 + 600 + 1_000 + 1_000 + 1_000));
		assertThat(RegistryClient.builder("http://127.0.0.1:1").retries(0).build().longestWait())
			.isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void registriesThatNeverAnswerCostAtMostTheLongestWait() throws Exception {
		InetAddress loopback = InetAddress.getLoopbackAddress();
		// Connections complete in the backlog, and no response ever comes.
		try (ServerSocket first = new ServerSocket(0, 50, loopback);
				ServerSocket second = new ServerSocket(0, 50, loopback)) {
			RegistryClient client = RegistryClient
				.builder("http://127.0.0.1:" + first.getLocalPort(), "http://127.0.0.1:" + second.getLocalPort())
				.timeout(Duration.ofMillis(200))
				.retries(2)
				.backoff(Duration.ofMillis(100), Duration.ofMillis(150))
				.build();
			Duration longest = client.longestWait();
			assertThat(longest).isEqualTo(Duration.ofMillis(3 * 2 * 200 + 100 + 150));
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> client.schemaById(1))
				.withMessageContaining("timed out");
			Duration took = Duration.ofNanos(System.nanoTime() - started);
			assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(3 * 2 * 200))
				.isLessThan(longest.plusSeconds(1));
		}
	}

}
