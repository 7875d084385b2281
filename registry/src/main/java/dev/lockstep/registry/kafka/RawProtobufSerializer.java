package dev.lockstep.registry.kafka;

import com.google.protobuf.Message;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A Kafka {@link Serializer} of generated Protobuf messages as their bare bytes, for
 * topics without a registry. A {@code null} value (a tombstone) stays {@code null}.
 *
 * @param <T> the message type
 */
public class RawProtobufSerializer<T extends Message> implements Serializer<T> {

	@Override
	public byte[] serialize(String topic, T data) {
		return (data != null) ? data.toByteArray() : null;
	}

}
