package dev.lockstep.autoconfigure;

import java.util.stream.Stream;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Builds the Kafka serializers and deserializers that a {@link LockstepProperties.Codec}
 * describes. To add an encoding, define a {@link LockstepCodec} bean: the default
 * factory finds it by name. A bean of this type replaces the whole lookup.
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

	/**
	 * Return whether the codec calls the schema registry on the record path, so that a
	 * worker's transaction budget must allow for the registry's longest wait.
	 * @param codec the encoding
	 * @return whether it does
	 */
	default boolean usesRegistry(LockstepProperties.Codec codec) {
		// Lockstep's registry codecs, whichever factory builds them.
		String name = DefaultCodecFactory.canonical(codec.getCodec());
		return Stream.of(BuiltInCodecs.REGISTRY_AVRO, BuiltInCodecs.REGISTRY_JSON_SCHEMA, BuiltInCodecs.REGISTRY_PROTOBUF)
			.map(DefaultCodecFactory::canonical)
			.anyMatch(name::equals);
	}

}
