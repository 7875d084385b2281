package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lockstep.security.require-encryption} against a real plaintext listener on a
 * non-loopback address (a {@link PrivateNetwork} this test makes): the sample jar, given
 * the broker as a Kubernetes manifest gives it (environment variables), refuses to start,
 * naming the property and where it was set, before any client reaches the broker. Without
 * the setting the same kind of broker is used, with a warning. Each test has its own broker.
 */
class PlaintextListenerTests {

	private static PrivateNetwork network;

	@BeforeAll
	static void makePrivateNetwork() {
		network = PrivateNetwork.create();
	}

	@AfterAll
	static void removePrivateNetwork() {
		if (network != null) {
			network.close();
		}
	}

	@Test
	void aPlaintextBrokerOnANonLoopbackAddressIsRefusedAtStartWhenEncryptionIsRequired(@TempDir Path workDir)
			throws Exception {
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.startListeningOn(network.hostAddress());
				Admin admin = admin(broker)) {
			// The listener is real: a plaintext client reaches it at that address.
			assertThat(admin.describeCluster().nodes().get()).singleElement()
				.satisfies((node) -> assertThat(node.host()).isEqualTo(network.hostAddress()));
			long started = System.nanoTime();
			SampleAppProcess worker = SampleAppProcess.start(workDir,
					Map.of("SPRING_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers(),
							"LOCKSTEP_SECURITY_REQUIRE_ENCRYPTION", "true"),
					"--spring.main.web-application-type=none", "--logging.level.root=WARN");
			assertThat(worker.awaitExit(Duration.ofMinutes(2))).as(worker::logTail).isNotZero();
			System.out.printf("PLAINTEXT refused after %d ms (the process's start to its exit)%n",
					Duration.ofNanos(System.nanoTime() - started).toMillis());
			assertThat(worker.output()).as(worker::logTail)
				.contains("Property: spring.kafka.bootstrap-servers")
				.contains("Origin: System Environment Property \"SPRING_KAFKA_BOOTSTRAP_SERVERS\"")
				.contains("reaches Kafka broker " + broker.bootstrapServers() + " over PLAINTEXT, without TLS, "
						+ "but lockstep.security.require-encryption=true")
				.contains("Use TLS");
			// Refused before any client acted: the sample's lockstep.topics not created, no group.
			assertThat(admin.listTopics().names().get()).isEmpty();
			assertThat(admin.listGroups().all().get()).isEmpty();
		}
	}

	@Test
	void withoutRequireEncryptionTheBrokerIsUsedAndThePlaintextNamedInAWarning(@TempDir Path workDir)
			throws Exception {
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.startListeningOn(network.hostAddress())) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), 2_000);
			pipeline.createTopics(1, (short) 1);
			pipeline.seed();
			long started = System.nanoTime();
			SampleAppProcess worker = pipeline.startWorker(workDir);
			try {
				worker.awaitUntil("group lag 0 over the private network", Duration.ofMinutes(2),
						() -> pipeline.groupLag() == 0);
			}
			finally {
				worker.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput("plaintext-private-network", 0, 1, started);
			assertThat(worker.output()).contains("Kafka broker " + broker.bootstrapServers()
					+ " is reached over PLAINTEXT, without TLS: traffic and credentials are readable on the network");
		}
	}

	private static Admin admin(InJvmKafkaBroker broker) {
		return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
	}

}
