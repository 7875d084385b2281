package dev.lockstep.worker;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import org.springframework.core.log.LogAccessor;

/**
 * Reads the features of the cluster a worker's consumer connects to, with an admin
 * client of the consumer's settings: all of them but those only a consumer has, so that
 * what secures the connection reaches it whatever its form (Kafka's keys, config
 * providers, an SSL bundle object Spring Boot passes). It waits at most
 * {@link #START_WAIT} (less when the consumer's {@code default.api.timeout.ms} is lower):
 * the read holds up the application's start. A cluster that does not answer in time, or
 * any failure of the read, refuses nothing: it is logged, and the worker's own clients
 * then report what the cluster says.
 */
final class ClusterFeatureProbe {

	/** The longest a worker's start waits for its cluster's features. */
	static final Duration START_WAIT = Duration.ofSeconds(10);

	private static final LogAccessor logger = new LogAccessor(ClusterFeatureProbe.class);

	private static final Set<String> ADMIN_KEYS = AdminClientConfig.configNames();

	private static final Set<String> CONSUMER_KEYS = ConsumerConfig.configNames();

	private ClusterFeatureProbe() {
	}

	/**
	 * Read the features of a worker's cluster.
	 * @param settings the worker's settings
	 * @return the features, or unread with the reason
	 */
	static ClusterFeatures read(WorkerSettings settings) {
		ClusterFeatures features = readOrUnread(settings);
		if (!features.isRead()) {
			logger.warn(() -> "Worker " + settings.name() + " could not read its cluster's features ("
					+ features.unreadBecause() + "): no configuration is refused for want of a feature");
		}
		return features;
	}

	private static ClusterFeatures readOrUnread(WorkerSettings settings) {
		Admin admin;
		try {
			admin = Admin.create(adminConfig(settings.consumerProperties(), settings.name()));
		}
		catch (RuntimeException ex) {
			return ClusterFeatures.unread(ex.toString());
		}
		try {
			return ClusterFeatures.read(admin, timeout(settings.consumerProperties()));
		}
		catch (RuntimeException ex) {
			return ClusterFeatures.unread(ex.toString());
		}
		finally {
			// The answer is in hand (or will not come): nothing left to wait for.
			admin.close(Duration.ZERO);
		}
	}

	static Map<String, Object> adminConfig(Map<String, Object> consumerProperties, String worker) {
		Map<String, Object> config = new HashMap<>(consumerProperties);
		config.keySet().removeIf((key) -> CONSUMER_KEYS.contains(key) && !ADMIN_KEYS.contains(key));
		config.put(AdminClientConfig.CLIENT_ID_CONFIG, "lockstep-" + worker + "-features");
		return config;
	}

	static Duration timeout(Map<String, Object> consumerProperties) {
		Object value = consumerProperties.get(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
		if (value == null) {
			return START_WAIT;
		}
		try {
			Duration configured = Duration.ofMillis(Long.parseLong(value.toString().trim()));
			return (configured.compareTo(START_WAIT) < 0) ? configured : START_WAIT;
		}
		catch (NumberFormatException ex) {
			// Not Kafka's to accept either: the consumer reports it when it is built.
			return START_WAIT;
		}
	}

}
