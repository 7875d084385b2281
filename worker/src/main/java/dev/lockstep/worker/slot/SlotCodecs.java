package dev.lockstep.worker.slot;

import dev.lockstep.worker.Output;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.observation.RecordTrace;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A slot's view of the worker's codecs: decodes a consumed record for the processor and
 * gives it an {@link Output} that encodes. Failures propagate as the codecs throw them;
 * their type says what they mean ({@link WorkerSettings.Codecs#invalidData()}).
 */
final class SlotCodecs {

	private final String destination;

	private final Deserializer<Object> keyDeserializer;

	private final Deserializer<Object> valueDeserializer;

	private final Serializer<Object> keySerializer;

	private final Serializer<Object> valueSerializer;

	@SuppressWarnings("unchecked")
	SlotCodecs(WorkerSettings settings) {
		this.destination = settings.destination();
		this.keyDeserializer = (Deserializer<Object>) settings.codecs().keyDeserializer();
		this.valueDeserializer = (Deserializer<Object>) settings.codecs().valueDeserializer();
		this.keySerializer = (Serializer<Object>) settings.codecs().keySerializer();
		this.valueSerializer = (Serializer<Object>) settings.codecs().valueSerializer();
	}

	ConsumerRecord<Object, Object> decode(ConsumerRecord<byte[], byte[]> raw) {
		Object key = this.keyDeserializer.deserialize(raw.topic(), raw.headers(), raw.key());
		Object value = this.valueDeserializer.deserialize(raw.topic(), raw.headers(), raw.value());
		return new ConsumerRecord<>(raw.topic(), raw.partition(), raw.offset(), raw.timestamp(), raw.timestampType(),
				raw.serializedKeySize(), raw.serializedValueSize(), key, value, raw.headers(), raw.leaderEpoch());
	}

	BufferedOutput newOutput(ConsumerRecord<byte[], byte[]> input, RecordTrace trace) {
		return new BufferedOutput(this.destination, this.keySerializer, this.valueSerializer, input, trace);
	}

}
