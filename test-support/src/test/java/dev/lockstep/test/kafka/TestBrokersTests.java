package dev.lockstep.test.kafka;

import java.util.Map;

import dev.lockstep.test.kafka.TestBrokers.Kind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class TestBrokersTests {

	private static final Map<String, String> EXTERNAL = Map.of(TestBrokers.BOOTSTRAP_SERVERS_ENV, "127.0.0.1:9092");

	@Test
	void externalClusterWinsOverEveryRequestedBroker() {
		assertThat(TestBrokers.select(EXTERNAL, (key) -> "testcontainers")).isEqualTo(Kind.EXTERNAL);
		assertThat(TestBrokers.select(EXTERNAL, (key) -> null)).isEqualTo(Kind.EXTERNAL);
	}

	@Test
	void blankExternalClusterIsIgnored() {
		assertThat(TestBrokers.select(Map.of(TestBrokers.BOOTSTRAP_SERVERS_ENV, " "), (key) -> null))
			.isEqualTo(Kind.IN_JVM);
	}

	@Test
	void requestedBrokerIsUsedWithoutExternalCluster() {
		assertThat(TestBrokers.select(Map.of(), (key) -> "testcontainers")).isEqualTo(Kind.TESTCONTAINERS);
		assertThat(TestBrokers.select(Map.of(), (key) -> "Process")).isEqualTo(Kind.PROCESS);
		assertThat(TestBrokers.select(Map.of(), (key) -> "in-jvm")).isEqualTo(Kind.IN_JVM);
	}

	@Test
	void inJvmBrokerIsTheDefault() {
		assertThat(TestBrokers.select(Map.of(), (key) -> null)).isEqualTo(Kind.IN_JVM);
	}

	@Test
	void unknownRequestedBrokerIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> TestBrokers.select(Map.of(), (key) -> "docker"))
			.withMessageContaining("lockstep.test.broker=docker");
	}

	@Test
	void startGivesTheSelectedBrokerAWorkingTransactionCoordinator() {
		try (KafkaBroker broker = TestBrokers.start()) {
			new TransactionalRoundTrip(broker).assertCommittedVisibleAndAbortedInvisible();
		}
	}

}
