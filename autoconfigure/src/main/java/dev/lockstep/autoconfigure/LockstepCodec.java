package dev.lockstep.autoconfigure;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * An encoding that workers and producers name in YAML ({@code codec: <name>}). Lockstep's
 * own are {@code bytes}, {@code string}, {@code json}, {@code raw-avro}, {@code protobuf},
 * {@code registry-avro}, {@code registry-json-schema} and {@code registry-protobuf}; define a bean of this type to add one (or to replace one
 * of the same name). A codec gets what it needs (a registry client, a mapper, options) as
 * a bean does, and builds its serializers from the typed {@link CodecSettings} of each
 * place it is named.
 */
public interface LockstepCodec {

	/**
	 * Return the name YAML uses, such as {@code cbor}: lower case, words joined by hyphens.
	 * @return the name
	 */
	String name();

	/**
	 * Build a serializer.
	 * @param settings what the YAML says of this side
	 * @return a configured, thread-safe serializer
	 */
	Serializer<?> serializer(CodecSettings settings);

	/**
	 * Build a deserializer. Data it can never decode must be
	 * {@link dev.lockstep.registry.InvalidDataException} (quarantined or blocked); a
	 * failure that may pass (an outage) a plain
	 * {@link org.apache.kafka.common.errors.SerializationException} (retried).
	 * @param settings what the YAML says of this side
	 * @return a configured, thread-safe deserializer
	 */
	Deserializer<?> deserializer(CodecSettings settings);

	/**
	 * Return whether the codec calls the schema registry on the record path, so that a
	 * worker's transaction budget must allow for the registry's longest wait.
	 * @return whether it does
	 */
	default boolean usesRegistry() {
		return false;
	}

}
