package dev.lockstep.autoconfigure;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Builds the Kafka serializers and deserializers that a {@link LockstepProperties.Codec}
 * describes. Define a bean of this type to add encodings of your own.
 */
public interface CodecFactory {

	/**
	 * Build a serializer.
	 * @param codec the encoding
	 * @param isKey whether it encodes keys
	 * @param property the property that configured it, for error messages
	 * @return a configured, thread-safe serializer
	 */
	Serializer<?> serializer(LockstepProperties.Codec codec, boolean isKey, String property);

	/**
	 * Build a deserializer.
	 * @param codec the encoding
	 * @param isKey whether it decodes keys
	 * @param property the property that configured it, for error messages
	 * @return a configured, thread-safe deserializer
	 */
	Deserializer<?> deserializer(LockstepProperties.Codec codec, boolean isKey, String property);

}
