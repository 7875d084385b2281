package dev.lockstep.registry.kafka;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import dev.lockstep.registry.InvalidDataException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A Kafka {@link Deserializer} of bare Protobuf bytes (no registry framing) into one
 * generated type: malformed data throws {@link InvalidDataException}, fields the type does
 * not know are kept as unknown fields. A {@code null} value (a tombstone) stays
 * {@code null}.
 *
 * @param <T> the message type
 */
public class RawProtobufDeserializer<T extends Message> implements Deserializer<T> {

	private final T defaultInstance;

	private final Parser<T> parser;

	/**
	 * Create a deserializer into one generated type.
	 * @param defaultInstance the type's default instance, such as {@code Order.getDefaultInstance()}
	 */
	@SuppressWarnings("unchecked")
	public RawProtobufDeserializer(T defaultInstance) {
		this.defaultInstance = defaultInstance;
		this.parser = (Parser<T>) defaultInstance.getParserForType();
	}

	@Override
	public T deserialize(String topic, byte[] data) {
		if (data == null) {
			return null;
		}
		try {
			return this.parser.parseFrom(data);
		}
		catch (InvalidProtocolBufferException ex) {
			throw new InvalidDataException("Malformed " + this.defaultInstance.getDescriptorForType().getFullName()
					+ ": " + ex.getMessage(), ex);
		}
	}

}
