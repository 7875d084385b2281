package dev.lockstep.worker;

import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * What a worker's configuration needs from its cluster's finalized features, checked
 * when the worker starts. Features that could not be read refuse nothing: the worker
 * starts and its clients report what the cluster says.
 */
final class ClusterRequirements {

	private ClusterRequirements() {
	}

	/**
	 * Refuse a configuration the cluster cannot serve.
	 * @param worker the worker's name
	 * @param consumerProperties the worker's consumer properties
	 * @param features the cluster's features
	 * @throws MissingClusterFeatureException when the cluster lacks a feature the
	 * configuration needs
	 */
	static void check(String worker, Map<String, Object> consumerProperties, ClusterFeatures features) {
		if (!features.isRead()) {
			return;
		}
		if (WorkerSettings.usesConsumerGroupProtocol(consumerProperties)
				&& features.level(ClusterFeatures.GROUP_VERSION) < 1) {
			throw new MissingClusterFeatureException(ClusterFeatures.GROUP_VERSION,
					ConsumerConfig.GROUP_PROTOCOL_CONFIG,
					"Worker " + worker + " is configured with group.protocol=consumer (KIP-848), which needs the "
							+ "cluster's group.version 1 or later; the cluster has group.version="
							+ features.level(ClusterFeatures.GROUP_VERSION) + " (" + features + ").",
					"Use group.protocol=classic, or finalize group.version 1 on the cluster "
							+ "(kafka-features.sh upgrade --feature group.version=1, Kafka 4.0 or later).");
		}
	}

}
