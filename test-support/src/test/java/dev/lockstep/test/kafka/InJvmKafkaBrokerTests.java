package dev.lockstep.test.kafka;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InJvmKafkaBrokerTests {

	@Test
	void transactionalWorkIsVisibleToReadCommittedAndAbortedWorkIsNot() {
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			assertThat(broker.bootstrapServers()).startsWith("127.0.0.1:");
			new TransactionalRoundTrip(broker).assertCommittedVisibleAndAbortedInvisible();
		}
	}

	@Test
	void closeRemovesTheDataDirectory() {
		Path dataDir;
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			dataDir = broker.dataDirectory();
			assertThat(dataDir).isDirectory();
		}
		assertThat(Files.exists(dataDir)).isFalse();
	}

}
