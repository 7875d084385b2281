package dev.lockstep.worker.slot;

import java.util.HashMap;
import java.util.Map;

import dev.lockstep.worker.ExactlyOnceClients;
import dev.lockstep.worker.WorkerSettings;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Builds a slot's clients with the exactly-once contract ({@link ExactlyOnceClients}) over
 * whatever the settings carry: a read_committed consumer that never auto-commits, in the
 * worker's group (a static member named by the slot's transactional id, or a dynamic one, as
 * the settings say); an idempotent producer with {@code acks=all}, the slot's transactional id
 * and the worker's transaction timeout, and its {@code max.block.ms}
 * ({@link WorkerSettings#producerMaxBlock()}).
 */
public final class KafkaSlotClients implements SlotClients {

	private final WorkerSettings settings;

	private final SlotId id;

	/**
	 * Create the clients of one slot.
	 * @param settings the worker's settings
	 * @param id the slot
	 */
	public KafkaSlotClients(WorkerSettings settings, SlotId id) {
		this.settings = settings;
		this.id = id;
	}

	@Override
	public Consumer<byte[], byte[]> newConsumer() {
		return new KafkaConsumer<>(consumerProperties(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
	}

	@Override
	public Producer<byte[], byte[]> newProducer() {
		return new KafkaProducer<>(producerProperties(), new ByteArraySerializer(), new ByteArraySerializer());
	}

	Map<String, Object> consumerProperties() {
		Map<String, Object> props = ExactlyOnceClients.consumer(new HashMap<>(this.settings.consumerProperties()));
		props.put(ConsumerConfig.GROUP_ID_CONFIG, this.settings.groupId());
		if (this.settings.membership().staticMembers()) {
			// Unique and stable as the transactional id is: a restarted slot is the same member.
			props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, this.id.transactionalId());
		}
		else {
			// One id shared by every slot would make them fence each other.
			props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
		}
		props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG,
				"lockstep-" + this.id.worker() + "-" + this.id.index() + "-consumer");
		return props;
	}

	Map<String, Object> producerProperties() {
		Map<String, Object> props = ExactlyOnceClients.producer(new HashMap<>(this.settings.producerProperties()));
		props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, this.id.transactionalId());
		props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) this.settings.transaction().timeout().toMillis());
		props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, this.settings.producerMaxBlock().toMillis());
		props.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG,
				"lockstep-" + this.id.worker() + "-" + this.id.index() + "-producer");
		return props;
	}

}
