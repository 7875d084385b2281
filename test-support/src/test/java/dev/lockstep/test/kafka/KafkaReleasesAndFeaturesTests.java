package dev.lockstep.test.kafka;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The brokers of the compatibility matrix: Kafka 3.9 and 4.4 as processes (their jars
 * cannot share this JVM's class path: Lockstep's node launcher runs on each line), and Kafka 4.1 with transactions v1 pinned, in this JVM and as
 * a process. Each is what it says it is (its finalized features) and runs transactions;
 * the e2e matrix restarts each under a worker.
 */
class KafkaReleasesAndFeaturesTests {

	@Test
	void kafka39BrokerProcessRunsTransactions() {
		KafkaBrokerSpec spec = KafkaBrokerSpec.defaults().withRelease(KafkaRelease.named("3.9"));
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start(spec)) {
			assertThat(broker.description()).contains("Kafka 3.9.");
			FinalizedFeatures features = FinalizedFeatures.of(broker.bootstrapServers());
			// Kafka 3.9's metadata version, 3.9-IV0.
			assertThat(features.level(FinalizedFeatures.METADATA_VERSION)).isEqualTo((short) 21);
			assertThat(features.level(FinalizedFeatures.TRANSACTION_VERSION)).isLessThan((short) 2);
			new TransactionalRoundTrip(broker).assertCommittedVisibleAndAbortedInvisible();
		}
	}

	@Test
	void kafka44BrokerProcessRunsTransactionsAndOffersEveryGroupProtocol() {
		KafkaBrokerSpec spec = KafkaBrokerSpec.defaults().withRelease(KafkaRelease.named("4.4"));
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start(spec)) {
			assertThat(broker.description()).contains("Kafka 4.4.");
			FinalizedFeatures features = FinalizedFeatures.of(broker.bootstrapServers());
			// Kafka 4.4's metadata versions are 4.4-IV0 to 4.4-IV2 (31 to 33).
			assertThat(features.level(FinalizedFeatures.METADATA_VERSION)).isBetween((short) 31, (short) 33);
			assertThat(features.level(FinalizedFeatures.TRANSACTION_VERSION)).isEqualTo((short) 2);
			assertThat(features.level(FinalizedFeatures.GROUP_VERSION)).isGreaterThanOrEqualTo((short) 1);
			new TransactionalRoundTrip(broker).assertCommittedVisibleAndAbortedInvisible();
		}
	}

	@Test
	void kafka41InThisJvmOffersTransactionsV2AndTheConsumerGroupProtocolByDefault() {
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			FinalizedFeatures features = FinalizedFeatures.of(broker.bootstrapServers());
			assertThat(features.level(FinalizedFeatures.TRANSACTION_VERSION)).isEqualTo((short) 2);
			assertThat(features.level(FinalizedFeatures.GROUP_VERSION)).isGreaterThanOrEqualTo((short) 1);
		}
	}

	@Test
	void kafka41WithTransactionsV1PinnedInThisJvmRunsTransactions() {
		KafkaBrokerSpec spec = KafkaBrokerSpec.defaults().withFeature(FinalizedFeatures.TRANSACTION_VERSION, 1);
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start(spec)) {
			assertThat(FinalizedFeatures.of(broker.bootstrapServers()).level(FinalizedFeatures.TRANSACTION_VERSION))
				.isEqualTo((short) 1);
			new TransactionalRoundTrip(broker).assertCommittedVisibleAndAbortedInvisible();
		}
	}

	@Test
	void kafka41WithTransactionsV1PinnedAsAProcess() {
		KafkaBrokerSpec spec = KafkaBrokerSpec.defaults().withFeature(FinalizedFeatures.TRANSACTION_VERSION, 1);
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start(spec)) {
			assertThat(broker.description()).contains("transaction.version=1");
			assertThat(FinalizedFeatures.of(broker.bootstrapServers()).level(FinalizedFeatures.TRANSACTION_VERSION))
				.isEqualTo((short) 1);
		}
	}

}
