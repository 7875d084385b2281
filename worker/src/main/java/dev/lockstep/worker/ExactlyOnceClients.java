package dev.lockstep.worker;

import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The client settings of Lockstep's exactly-once contract, applied over whatever was
 * configured: worker slots, named producers and the listener factory all take them
 * from here.
 */
public final class ExactlyOnceClients {

	/**
	 * Kafka 4.4's asynchronous bootstrap resolution (KIP-909, an evolving feature): when
	 * positive, a client that gives up resolving fails every call until it is re-created,
	 * which no slot's recovery does for it. Held at 0 (resolved when the client is built,
	 * Kafka's default) on every client line that knows the key.
	 */
	public static final String BOOTSTRAP_RESOLVE_TIMEOUT = "bootstrap.resolve.timeout.ms";

	private ExactlyOnceClients() {
	}

	/**
	 * Make a producer configuration transactional-ready: idempotent, {@code acks=all},
	 * bootstrap servers resolved when it is built ({@link #BOOTSTRAP_RESOLVE_TIMEOUT}).
	 * @param producer the producer properties, changed in place
	 * @return the same map
	 */
	public static Map<String, Object> producer(Map<String, Object> producer) {
		producer.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
		producer.put(ProducerConfig.ACKS_CONFIG, "all");
		if (ProducerConfig.configNames().contains(BOOTSTRAP_RESOLVE_TIMEOUT)) {
			producer.put(BOOTSTRAP_RESOLVE_TIMEOUT, 0);
		}
		return producer;
	}

	/**
	 * Make a consumer configuration read only committed records and never commit by
	 * itself (its offsets are committed in the transactions that write its output), its
	 * bootstrap servers resolved when it is built ({@link #BOOTSTRAP_RESOLVE_TIMEOUT}).
	 * @param consumer the consumer properties, changed in place
	 * @return the same map
	 */
	public static Map<String, Object> consumer(Map<String, Object> consumer) {
		consumer.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		if (ConsumerConfig.configNames().contains(BOOTSTRAP_RESOLVE_TIMEOUT)) {
			consumer.put(BOOTSTRAP_RESOLVE_TIMEOUT, 0);
		}
		return consumer;
	}

}
