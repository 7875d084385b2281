package dev.lockstep.registry.kafka;

import java.util.Map;

import dev.lockstep.registry.avro.RawAvroCodec;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A Kafka {@link Serializer} of generated Avro records as raw Avro, without registry
 * framing, for topics whose writer schema every participant knows. The record class
 * comes from the constructor or from {@code lockstep.avro.value.type} /
 * {@code lockstep.avro.key.type}. A {@code null} value (a tombstone) stays {@code null}.
 *
 * @param <T> the generated record type
 */
public class RawAvroSerializer<T extends SpecificRecord> implements Serializer<T> {

	private final Class<T> type;

	private RawAvroCodec<T> codec;

	/**
	 * Create a serializer configured by class name; the record class comes from the
	 * configuration.
	 */
	public RawAvroSerializer() {
		this.type = null;
	}

	/**
	 * Create a serializer of one generated record class.
	 * @param type the generated record class
	 */
	public RawAvroSerializer(Class<T> type) {
		this.type = type;
		this.codec = new RawAvroCodec<>(type);
	}

	@Override
	public void configure(Map<String, ?> configs, boolean isKey) {
		this.codec = RawAvroSerdeSupport.codec(this.type, configs, isKey);
	}

	@Override
	public byte[] serialize(String topic, T data) {
		return RawAvroSerdeSupport.configured(this.codec).encode(data);
	}

}
