package dev.lockstep.registry.kafka;

import java.util.Map;

import dev.lockstep.registry.avro.RawAvroCodec;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A Kafka {@link Deserializer} of raw Avro (no registry framing) into a generated
 * record class, as strict as the registry codecs: malformed, truncated or oversized data
 * and trailing bytes throw {@link dev.lockstep.registry.InvalidDataException}. The
 * record class comes from the constructor or from {@code lockstep.avro.value.type} /
 * {@code lockstep.avro.key.type}. A {@code null} value (a tombstone) stays {@code null}.
 *
 * @param <T> the generated record type
 */
public class RawAvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {

	private final Class<T> type;

	private RawAvroCodec<T> codec;

	/**
	 * Create a deserializer configured by class name; the record class comes from the
	 * configuration.
	 */
	public RawAvroDeserializer() {
		this.type = null;
	}

	/**
	 * Create a deserializer into one generated record class.
	 * @param type the generated record class
	 */
	public RawAvroDeserializer(Class<T> type) {
		this.type = type;
		this.codec = new RawAvroCodec<>(type);
	}

	@Override
	public void configure(Map<String, ?> configs, boolean isKey) {
		this.codec = RawAvroSerdeSupport.codec(this.type, configs, isKey);
	}

	@Override
	public T deserialize(String topic, byte[] data) {
		return RawAvroSerdeSupport.configured(this.codec).decode(data);
	}

}
