package dev.lockstep.autoconfigure;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockstep.autoconfigure.LockstepProperties.CodecType;

import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.kafka.RawAvroDeserializer;
import dev.lockstep.registry.kafka.RawAvroSerializer;
import dev.lockstep.registry.kafka.RegistryAvroDeserializer;
import dev.lockstep.registry.kafka.RegistryAvroSerializer;
import dev.lockstep.registry.kafka.RegistryJsonSchemaDeserializer;
import dev.lockstep.registry.kafka.RegistryJsonSchemaSerializer;
import dev.lockstep.registry.kafka.RegistrySerdeConfig;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import org.springframework.util.ClassUtils;

/**
 * Lockstep's encodings: bytes, UTF-8 strings, raw Avro, and registry Avro and JSON Schema
 * (with the shared {@link RegistryClient}).
 */
public class DefaultCodecFactory implements CodecFactory {

	private static final String JSON_SCHEMA_VALIDATOR = "com.networknt.schema.SchemaRegistry";

	private final RegistryClient registryClient;

	private final boolean autoRegister;

	// Jackson 2, as the registry codecs speak it; java.time and other modules when present.
	private final ObjectMapper jsonMapper = new ObjectMapper().findAndRegisterModules();

	/**
	 * Create a factory.
	 * @param registryClient the registry client, or {@code null} when no registry is configured
	 * @param autoRegister whether registry serializers register missing schemas
	 */
	public DefaultCodecFactory(RegistryClient registryClient, boolean autoRegister) {
		this.registryClient = registryClient;
		this.autoRegister = autoRegister;
	}

	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public Serializer<?> serializer(LockstepProperties.Codec codec, boolean isKey, String property) {
		checkSchema(codec, property);
		return switch (codec.getCodec()) {
			case BYTES -> new ByteArraySerializer();
			case STRING -> new StringSerializer();
			case RAW_AVRO -> new RawAvroSerializer(recordType(codec, property));
			case REGISTRY_AVRO -> {
				RegistryAvroSerializer<Object> serializer = new RegistryAvroSerializer<>(registry(codec, property));
				serializer.configure(registryConfig(codec), isKey);
				yield serializer;
			}
			case REGISTRY_JSON_SCHEMA -> {
				RegistryJsonSchemaSerializer<Object> serializer = new RegistryJsonSchemaSerializer<>(
						jsonRegistry(codec, property), this.jsonMapper);
				configure(() -> serializer.configure(jsonConfig(codec, isKey), isKey), property);
				yield serializer;
			}
		};
	}

	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public Deserializer<?> deserializer(LockstepProperties.Codec codec, boolean isKey, String property) {
		checkSchema(codec, property);
		return switch (codec.getCodec()) {
			case BYTES -> new ByteArrayDeserializer();
			case STRING -> new StringDeserializer();
			case RAW_AVRO -> new RawAvroDeserializer(recordType(codec, property));
			case REGISTRY_AVRO -> {
				RegistryAvroDeserializer<Object> deserializer = new RegistryAvroDeserializer<>(registry(codec, property));
				deserializer.configure(registryConfig(codec), isKey);
				yield deserializer;
			}
			case REGISTRY_JSON_SCHEMA -> {
				RegistryJsonSchemaDeserializer<Object> deserializer = new RegistryJsonSchemaDeserializer<>(
						jsonRegistry(codec, property), this.jsonMapper);
				configure(() -> deserializer.configure(jsonConfig(codec, isKey), isKey), property);
				yield deserializer;
			}
		};
	}

	private Map<String, Object> registryConfig(LockstepProperties.Codec codec) {
		Map<String, Object> config = new HashMap<>();
		config.put(RegistrySerdeConfig.AUTO_REGISTER_SCHEMAS, this.autoRegister);
		if (codec.getType() != null) {
			config.put(RegistrySerdeConfig.KEY_TYPE, codec.getType().getName());
			config.put(RegistrySerdeConfig.VALUE_TYPE, codec.getType().getName());
		}
		return config;
	}

	private Map<String, Object> jsonConfig(LockstepProperties.Codec codec, boolean isKey) {
		Map<String, Object> config = new HashMap<>();
		config.put(RegistrySerdeConfig.AUTO_REGISTER_SCHEMAS, this.autoRegister);
		if (codec.getSchema() != null) {
			config.put(isKey ? RegistrySerdeConfig.JSON_KEY_SCHEMA : RegistrySerdeConfig.JSON_VALUE_SCHEMA,
					codec.getSchema());
		}
		else {
			config.put(RegistrySerdeConfig.USE_LATEST_VERSION, true);
		}
		if (codec.getType() != null) {
			config.put(isKey ? RegistrySerdeConfig.JSON_KEY_TYPE : RegistrySerdeConfig.JSON_VALUE_TYPE,
					codec.getType().getName());
		}
		return config;
	}

	private RegistryClient registry(LockstepProperties.Codec codec, String property) {
		if (this.registryClient == null) {
			String name = codec.getCodec().name().toLowerCase(Locale.ROOT).replace('_', '-');
			throw new LockstepConfigurationException(property + ".codec", null,
					name + " needs a schema registry, and none is configured",
					"Set lockstep.registry.url" + ((codec.getCodec() == CodecType.REGISTRY_AVRO) ? ", or use raw-avro."
							: "."));
		}
		return this.registryClient;
	}

	private RegistryClient jsonRegistry(LockstepProperties.Codec codec, String property) {
		if (!ClassUtils.isPresent(JSON_SCHEMA_VALIDATOR, getClass().getClassLoader())) {
			throw new LockstepConfigurationException(property + ".codec", null,
					"registry-json-schema validates with networknt's JSON Schema validator, which is not on the "
							+ "class path",
					"Add the dependency com.networknt:json-schema-validator (its version is managed by Lockstep's "
							+ "parent: 2.0.8).");
		}
		return registry(codec, property);
	}

	private static void configure(Runnable configure, String property) {
		try {
			configure.run();
		}
		catch (ConfigException ex) {
			// A schema file that is missing or invalid, a type that is not there.
			throw new LockstepConfigurationException(property, null, ex.getMessage(),
					"Fix " + property + ".schema or " + property + ".type.");
		}
	}

	private static void checkSchema(LockstepProperties.Codec codec, String property) {
		if (codec.getSchema() != null && codec.getCodec() != CodecType.REGISTRY_JSON_SCHEMA) {
			throw new LockstepConfigurationException(property + ".schema", null,
					"only a registry-json-schema codec writes with a schema file",
					"Remove " + property + ".schema, or set " + property + ".codec=registry-json-schema.");
		}
	}

	private static Class<?> recordType(LockstepProperties.Codec codec, String property) {
		Class<?> type = codec.getType();
		if (type == null || !SpecificRecord.class.isAssignableFrom(type)) {
			throw new LockstepConfigurationException(property + ".type", null,
					(type == null) ? "raw-avro needs the generated record class"
							: type.getName() + " is not a generated Avro record",
					"Set " + property + ".type to a class generated by avro-maven-plugin.");
		}
		return type;
	}

}
