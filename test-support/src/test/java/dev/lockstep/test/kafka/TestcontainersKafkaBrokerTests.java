package dev.lockstep.test.kafka;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class TestcontainersKafkaBrokerTests {

	@Test
	void transactionalWorkIsVisibleToReadCommittedAndAbortedWorkIsNot() {
		assumeTrue(TestcontainersKafkaBroker.isDockerAvailable(),
				"SKIPPED: no Docker engine; the same assertions ran on the in-JVM and process brokers");
		try (TestcontainersKafkaBroker broker = TestcontainersKafkaBroker.start()) {
			assertThat(broker.description()).contains(TestcontainersKafkaBroker.IMAGE);
			new TransactionalRoundTrip(broker).assertCommittedVisibleAndAbortedInvisible();
		}
	}

	@Test
	void askingForTestcontainersWithoutDockerFailsClearly() {
		assumeFalse(TestcontainersKafkaBroker.isDockerAvailable(), "Docker is available here");
		assertThatIllegalStateException().isThrownBy(TestcontainersKafkaBroker::start)
			.withMessageContaining("no Docker engine")
			.withMessageContaining("-Dlockstep.test.broker=testcontainers");
	}

}
