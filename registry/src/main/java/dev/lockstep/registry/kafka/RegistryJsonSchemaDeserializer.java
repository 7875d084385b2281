package dev.lockstep.registry.kafka;

import java.util.Map;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.internal.ClassLoaders;
import dev.lockstep.registry.json.JsonSchemaDeserializer;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A Kafka {@link Deserializer} of Confluent wire-format JSON, configured with Confluent's
 * keys: replacing {@code io.confluent.kafka.serializers.json.KafkaJsonSchemaDeserializer}
 * with this class name is enough. It returns {@link JsonNode}s, or instances of
 * {@code json.value.type} / {@code json.key.type}; values are validated against their
 * writer's schema ({@code json.fail.invalid.schema}, {@code true} unlike Confluent's
 * default), and a property the class does not know fails the read
 * ({@code json.fail.unknown.properties}). Malformed or invalid JSON throws
 * {@link dev.lockstep.registry.InvalidDataException}; registry outages throw a plain
 * {@link org.apache.kafka.common.errors.SerializationException}. A {@code null} value
 * (a tombstone) stays {@code null}.
 *
 * @param <T> the value type
 */
public class RegistryJsonSchemaDeserializer<T> implements Deserializer<T> {

	private final ObjectMapper mapper;

	private RegistryClient client;

	private boolean isKey;

	private JsonSchemaDeserializer<T> deserializer;

	/**
	 * Create a deserializer that builds its own registry client from its configuration.
	 */
	public RegistryJsonSchemaDeserializer() {
		// As Confluent's: java.time, Optional and other modules on the class path registered.
		this(null, new ObjectMapper().findAndRegisterModules());
	}

	/**
	 * Create a deserializer that uses a shared registry client and object mapper;
	 * {@link #configure} still reads the other keys ({@code json.fail.unknown.properties}
	 * applies to a copy of the mapper).
	 * @param client the registry client, or {@code null} to build one from the configuration
	 * @param mapper how JSON becomes values
	 */
	public RegistryJsonSchemaDeserializer(RegistryClient client, ObjectMapper mapper) {
		this.client = client;
		this.mapper = mapper;
	}

	@Override
	@SuppressWarnings("unchecked")
	public void configure(Map<String, ?> configs, boolean isKey) {
		this.isKey = isKey;
		RegistrySerdeConfig config = RegistrySerdeConfig.of(configs, isKey);
		if (config.deriveType()) {
			throw new ConfigException(RegistrySerdeConfig.DERIVE_TYPE, true,
					"Lockstep derives no class from a JSON schema's javaType; set " + (isKey
							? RegistrySerdeConfig.JSON_KEY_TYPE : RegistrySerdeConfig.JSON_VALUE_TYPE) + " instead");
		}
		if (this.client == null) {
			this.client = config.createClient();
		}
		Class<T> type = (Class<T>) JsonNode.class;
		String name = config.jsonType();
		if (name != null) {
			try {
				type = (Class<T>) Class.forName(name, false, ClassLoaders.contextOrLockstep());
			}
			catch (ClassNotFoundException | LinkageError ex) {
				throw new ConfigException(isKey ? RegistrySerdeConfig.JSON_KEY_TYPE : RegistrySerdeConfig.JSON_VALUE_TYPE,
						name, "No such class");
			}
		}
		ObjectMapper reader = this.mapper.copy()
			.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, config.jsonFailUnknownProperties());
		this.deserializer = JsonSchemaDeserializer.of(this.client, type, reader, config.jsonValidate(),
				config.maxMessageBytes(), config.cacheCapacity());
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
			throw new IllegalStateException("RegistryJsonSchemaDeserializer used before configure()");
		}
		return this.deserializer.deserialize(WireFormat.schemaIdHeader(headers, this.isKey), data);
	}

}
