package dev.lockstep.worker.slot;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;

/**
 * Creates a slot's Kafka clients. {@link KafkaSlotClients} builds real clients with the
 * exactly-once contract; tests hand in Kafka's mock clients.
 */
public interface SlotClients {

	/**
	 * Create the slot's consumer, not yet subscribed.
	 * @return a consumer of raw bytes
	 */
	Consumer<byte[], byte[]> newConsumer();

	/**
	 * Create the slot's transactional producer, not yet initialised.
	 * @return a producer of raw bytes
	 */
	Producer<byte[], byte[]> newProducer();

}
