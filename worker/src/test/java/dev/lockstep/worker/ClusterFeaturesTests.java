package dev.lockstep.worker;

import java.util.Arrays;
import java.util.Map;

import org.apache.kafka.server.common.MetadataVersion;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The features a worker shows: metadata version levels named as Kafka names them, levels
 * of features that are not finalized read as 0, and unread features refusing nothing.
 * A real cluster's answer on every broker line: {@code WorkerTests} and the e2e matrix.
 */
class ClusterFeaturesTests {

	@Test
	void everyMetadataVersionOfTheKafkaLineOnTheClassPathIsNamedAsKafkaNamesIt() {
		Arrays.stream(MetadataVersion.values())
			.filter((version) -> version.featureLevel() >= 7 && version.isProduction())
			.forEach((version) -> assertThat(MetadataVersions.name(version.featureLevel()))
				.as("level %d", version.featureLevel())
				.isEqualTo(version.version()));
	}

	@Test
	void aMetadataVersionNewerThanLockstepKnowsIsShownByItsLevel() {
		assertThat(ClusterFeatures.of(Map.of(ClusterFeatures.METADATA_VERSION, (short) 99)).metadataVersion())
			.isEqualTo("level 99");
	}

	@Test
	void describesEveryFinalizedFeatureMetadataVersionFirst() {
		ClusterFeatures features = ClusterFeatures.of(Map.of(ClusterFeatures.METADATA_VERSION, (short) 33,
				ClusterFeatures.TRANSACTION_VERSION, (short) 2, ClusterFeatures.GROUP_VERSION, (short) 1));
		assertThat(features).hasToString("metadata.version=4.4-IV2 group.version=1 transaction.version=2");
		assertThat(features.level(ClusterFeatures.SHARE_VERSION)).isZero();
	}

	@Test
	void unreadFeaturesSayWhy() {
		ClusterFeatures unread = ClusterFeatures.unread("no answer within PT1M");
		assertThat(unread.isRead()).isFalse();
		assertThat(unread).hasToString("features not read (no answer within PT1M)");
	}

}
