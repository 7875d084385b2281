package dev.lockstep.worker;

import java.util.Map;

import org.apache.kafka.clients.consumer.GroupProtocol;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * What a worker's configuration needs from its cluster: the consumer group protocol
 * needs {@code group.version} 1; nothing else is refused, and unread features refuse
 * nothing (the worker's clients report what the cluster says).
 */
class ClusterRequirementsTests {

	private static final ClusterFeatures WITHOUT_GROUP_VERSION = ClusterFeatures
		.of(Map.of(ClusterFeatures.METADATA_VERSION, (short) 21, ClusterFeatures.TRANSACTION_VERSION, (short) 0));

	private static final ClusterFeatures WITH_GROUP_VERSION = ClusterFeatures
		.of(Map.of(ClusterFeatures.METADATA_VERSION, (short) 27, ClusterFeatures.GROUP_VERSION, (short) 1));

	@Test
	void consumerProtocolIsRefusedWithoutGroupVersionOneWhetherGivenAsTextOrEnum() {
		for (Object protocol : new Object[] { "consumer", "CONSUMER", GroupProtocol.CONSUMER }) {
			assertThatExceptionOfType(MissingClusterFeatureException.class)
				.isThrownBy(() -> ClusterRequirements.check("normalizer", Map.of("group.protocol", protocol),
						WITHOUT_GROUP_VERSION))
				.withMessageStartingWith("Worker normalizer is configured with group.protocol=consumer")
				.withMessageContaining("group.version=0 (metadata.version=3.9-IV0 transaction.version=0)");
		}
	}

	@Test
	void consumerProtocolStartsWithGroupVersionOne() {
		assertThatNoException().isThrownBy(() -> ClusterRequirements.check("normalizer",
				Map.of("group.protocol", "consumer"), WITH_GROUP_VERSION));
	}

	@Test
	void classicProtocolNeedsNoFeature() {
		assertThatNoException().isThrownBy(() -> ClusterRequirements.check("normalizer", Map.of(),
				WITHOUT_GROUP_VERSION));
		assertThatNoException().isThrownBy(() -> ClusterRequirements.check("normalizer",
				Map.of("group.protocol", "classic"), WITHOUT_GROUP_VERSION));
	}

	@Test
	void unreadFeaturesRefuseNothing() {
		assertThatNoException().isThrownBy(() -> ClusterRequirements.check("normalizer",
				Map.of("group.protocol", "consumer"), ClusterFeatures.unread("no answer within PT1M")));
	}

}
