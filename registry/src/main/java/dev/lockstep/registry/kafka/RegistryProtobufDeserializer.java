package dev.lockstep.registry.kafka;

import java.util.Map;

import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Internal;
import com.google.protobuf.Message;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.internal.ClassLoaders;
import dev.lockstep.registry.protobuf.ProtobufDeserializer;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A Kafka {@link Deserializer} of Confluent wire-format Protobuf, configured with
 * Confluent's keys: replacing
 * {@code io.confluent.kafka.serializers.protobuf.KafkaProtobufDeserializer} with this
 * class name is enough. It returns {@link DynamicMessage}s of each writer's descriptor, or
 * instances of {@code specific.protobuf.value.type} / {@code specific.protobuf.key.type}
 * (a generated class, which takes only messages of its own full name), or, with
 * {@code derive.type=true}, instances of each writer message's own generated class. Malformed data
 * throws {@link dev.lockstep.registry.InvalidDataException}; registry outages throw a
 * plain {@link org.apache.kafka.common.errors.SerializationException}. A {@code null}
 * value (a tombstone) stays {@code null}.
 *
 * @param <T> the message type
 */
public class RegistryProtobufDeserializer<T extends Message> implements Deserializer<T> {

	private RegistryClient client;

	private boolean isKey;

	private ProtobufDeserializer<T> deserializer;

	/**
	 * Create a deserializer that builds its own registry client from its configuration.
	 */
	public RegistryProtobufDeserializer() {
	}

	/**
	 * Create a deserializer that uses a shared registry client; {@link #configure} still
	 * reads the other keys.
	 * @param client the registry client
	 */
	public RegistryProtobufDeserializer(RegistryClient client) {
		this.client = client;
	}

	@Override
	@SuppressWarnings("unchecked")
	public void configure(Map<String, ?> configs, boolean isKey) {
		this.isKey = isKey;
		RegistrySerdeConfig config = RegistrySerdeConfig.of(configs, isKey);
		boolean deriveType = config.deriveType();
		if (this.client == null) {
			this.client = config.createClient();
		}
		if (deriveType) {
			this.deserializer = (ProtobufDeserializer<T>) ProtobufDeserializer.specificByWriterName(this.client,
					ClassLoaders.contextOrLockstep(), config.maxMessageBytes(), config.cacheCapacity());
			return;
		}
		String name = config.protobufType();
		if (name == null) {
			this.deserializer = (ProtobufDeserializer<T>) ProtobufDeserializer.dynamic(this.client,
					config.maxMessageBytes(), config.cacheCapacity());
			return;
		}
		String key = isKey ? RegistrySerdeConfig.SPECIFIC_PROTOBUF_KEY_TYPE
				: RegistrySerdeConfig.SPECIFIC_PROTOBUF_VALUE_TYPE;
		Class<?> type;
		try {
			type = Class.forName(name, false, ClassLoaders.contextOrLockstep());
		}
		catch (ClassNotFoundException | LinkageError ex) {
			throw new ConfigException(key, name, "No such class");
		}
		if (!Message.class.isAssignableFrom(type) || type == DynamicMessage.class) {
			throw new ConfigException(key, name, "Not a generated Protobuf message class");
		}
		T defaultInstance;
		try {
			defaultInstance = Internal.getDefaultInstance((Class<T>) type);
		}
		catch (RuntimeException ex) {
			// An abstract type, such as Message or GeneratedMessage itself.
			throw new ConfigException(key, name, "Not a generated Protobuf message class");
		}
		this.deserializer = ProtobufDeserializer.specific(this.client, defaultInstance, config.maxMessageBytes(),
				config.cacheCapacity());
	}

	@Override
	public T deserialize(String topic, byte[] data) {
		return deserialize(topic, null, data);
	}

	/**
	 * Decode a record's key or value; a schema id header
	 * ({@value WireFormat#VALUE_SCHEMA_ID_HEADER}, {@value WireFormat#KEY_SCHEMA_ID_HEADER})
	 * with a value names the writer schema in front of a bare payload, as Confluent's
	 * {@code DualSchemaIdDeserializer} reads it.
	 */
	@Override
	public T deserialize(String topic, Headers headers, byte[] data) {
		if (this.deserializer == null) {
			throw new IllegalStateException("RegistryProtobufDeserializer used before configure()");
		}
		return this.deserializer.deserialize(WireFormat.schemaIdHeader(headers, this.isKey), data);
	}

}
