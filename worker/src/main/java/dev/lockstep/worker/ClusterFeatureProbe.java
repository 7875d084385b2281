package dev.lockstep.worker;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Reads the features of the cluster a worker's consumer connects to, with an admin
 * client of the consumer's connection and security settings. It waits at most
 * {@link #START_WAIT} (less when the consumer's {@code default.api.timeout.ms} is lower):
 * the read holds up the application's start, during which its liveness is not yet
 * reported correct. A cluster that does not answer in time refuses nothing; the worker's
 * own clients then report what the cluster says.
 */
final class ClusterFeatureProbe {

	private static final Set<String> ADMIN_KEYS = AdminClientConfig.configNames();

	/** The longest a worker's start waits for its cluster's features. */
	static final Duration START_WAIT = Duration.ofSeconds(10);

	private ClusterFeatureProbe() {
	}

	/**
	 * Read the features of a worker's cluster.
	 * @param settings the worker's settings
	 * @return the features, or unread with the reason
	 */
	static ClusterFeatures read(WorkerSettings settings) {
		Map<String, Object> config = adminConfig(settings.consumerProperties(), settings.name());
		Duration timeout = timeout(settings.consumerProperties());
		Admin admin;
		try {
			admin = Admin.create(config);
		}
		catch (RuntimeException ex) {
			return ClusterFeatures.unread(ex.toString());
		}
		try {
			return ClusterFeatures.read(admin, timeout);
		}
		finally {
			// The answer is in hand (or will not come): nothing left to wait for.
			admin.close(Duration.ZERO);
		}
	}

	static Map<String, Object> adminConfig(Map<String, Object> consumerProperties, String worker) {
		Map<String, Object> config = new HashMap<>();
		consumerProperties.forEach((key, value) -> {
			if (ADMIN_KEYS.contains(key)) {
				config.put(key, value);
			}
		});
		config.put(AdminClientConfig.CLIENT_ID_CONFIG, "lockstep-" + worker + "-features");
		return config;
	}

	static Duration timeout(Map<String, Object> consumerProperties) {
		Object value = consumerProperties.get(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
		if (value == null) {
			return START_WAIT;
		}
		Duration configured = Duration.ofMillis(Long.parseLong(value.toString().trim()));
		return (configured.compareTo(START_WAIT) < 0) ? configured : START_WAIT;
	}

}
