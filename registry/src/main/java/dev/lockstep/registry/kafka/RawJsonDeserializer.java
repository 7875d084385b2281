package dev.lockstep.registry.kafka;

import java.io.IOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.internal.StrictJson;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A Kafka {@link Deserializer} of UTF-8 JSON (no registry framing) into a Jackson-mapped
 * class or a {@link JsonNode}, read as strictly as the registry codecs read it: one value,
 * no trailing bytes, no duplicate keys. Malformed JSON and values the class cannot hold
 * are {@link InvalidDataException}; a class that cannot be read into at all is the
 * application's fault (a plain {@link SerializationException}). A {@code null} value (a
 * tombstone) stays {@code null}.
 *
 * @param <T> the value type
 */
public class RawJsonDeserializer<T> implements Deserializer<T> {

	private final Class<T> type;

	private final ObjectMapper mapper;

	/**
	 * Create a deserializer.
	 * @param type the class values are mapped to ({@link JsonNode} for the tree itself)
	 * @param mapper how JSON becomes values
	 */
	public RawJsonDeserializer(Class<T> type, ObjectMapper mapper) {
		this.type = type;
		this.mapper = mapper;
	}

	@Override
	public T deserialize(String topic, byte[] data) {
		if (data == null) {
			return null;
		}
		JsonNode tree;
		try {
			tree = StrictJson.read(data, 0, data.length);
		}
		catch (IOException | StackOverflowError ex) {
			throw new InvalidDataException("Malformed JSON: " + ex.getMessage(), ex);
		}
		if (tree == null || tree.isMissingNode()) {
			throw new InvalidDataException("No JSON value in " + data.length + " bytes");
		}
		return StrictJson.toValue(this.mapper, tree, this.type, "JSON");
	}

}
