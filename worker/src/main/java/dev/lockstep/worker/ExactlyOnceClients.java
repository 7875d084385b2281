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

	private ExactlyOnceClients() {
	}

	/**
	 * Make a producer configuration transactional-ready: idempotent, {@code acks=all}.
	 * @param producer the producer properties, changed in place
	 * @return the same map
	 */
	public static Map<String, Object> producer(Map<String, Object> producer) {
		producer.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
		producer.put(ProducerConfig.ACKS_CONFIG, "all");
		return producer;
	}

	/**
	 * Make a consumer configuration read only committed records and never commit by
	 * itself: its offsets are committed in the transactions that write its output.
	 * @param consumer the consumer properties, changed in place
	 * @return the same map
	 */
	public static Map<String, Object> consumer(Map<String, Object> consumer) {
		consumer.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		return consumer;
	}

}
