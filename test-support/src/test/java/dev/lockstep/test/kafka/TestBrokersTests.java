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
	void anotherKafkaReleaseRunsAsABrokerProcessUnlessAKindIsAskedFor() {
		Map<String, String> otherRelease = Map.of(KafkaBrokerSpec.VERSION_PROPERTY, "3.9");
		assertThat(TestBrokers.select(Map.of(), otherRelease::get)).isEqualTo(Kind.PROCESS);
		Map<String, String> thisRelease = Map.of(KafkaBrokerSpec.VERSION_PROPERTY, KafkaRelease.current().version());
		assertThat(TestBrokers.select(Map.of(), thisRelease::get)).isEqualTo(Kind.IN_JVM);
		Map<String, String> otherReleaseInJvm = Map.of(KafkaBrokerSpec.VERSION_PROPERTY, "3.9",
				TestBrokers.BROKER_PROPERTY, "in-jvm");
		assertThat(TestBrokers.select(Map.of(), otherReleaseInJvm::get)).isEqualTo(Kind.IN_JVM);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> InJvmKafkaBroker.start(KafkaBrokerSpec.defaults().withRelease(KafkaRelease.named("3.9"))))
			.withMessageContaining("cannot run in this JVM");
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
