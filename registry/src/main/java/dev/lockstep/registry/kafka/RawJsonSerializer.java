package dev.lockstep.registry.kafka;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import dev.lockstep.registry.InvalidDataException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A Kafka {@link Serializer} of values as their UTF-8 JSON through a Jackson mapper, for
 * topics without a registry. A class the mapper cannot write at all is the application's
 * fault (a plain {@link SerializationException}); a value that cannot be written is
 * {@link InvalidDataException}. A {@code null} value (a tombstone) stays {@code null}.
 *
 * @param <T> the value type
 */
public class RawJsonSerializer<T> implements Serializer<T> {

	private final ObjectMapper mapper;

	/**
	 * Create a serializer.
	 * @param mapper how values become JSON
	 */
	public RawJsonSerializer(ObjectMapper mapper) {
		this.mapper = mapper;
	}

	@Override
	public byte[] serialize(String topic, T data) {
		if (data == null) {
			return null;
		}
		try {
			return this.mapper.writeValueAsBytes(data);
		}
		catch (InvalidDefinitionException ex) {
			throw new SerializationException(data.getClass().getName() + " cannot be written as JSON: "
					+ ex.getMessage(), ex);
		}
		catch (JsonProcessingException ex) {
			throw new InvalidDataException("A " + data.getClass().getName() + " cannot be written as JSON: "
					+ ex.getMessage(), ex);
		}
	}

}
