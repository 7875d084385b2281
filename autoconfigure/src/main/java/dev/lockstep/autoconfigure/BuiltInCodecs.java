package dev.lockstep.autoconfigure;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.fasterxml.jackson.databind.ObjectMapper;
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
 * Lockstep's own codecs: bytes, UTF-8 strings, raw Avro, and registry Avro and JSON Schema
 * over the shared {@link RegistryClient}.
 */
final class BuiltInCodecs {

	private static final String JSON_SCHEMA_VALIDATOR = "com.networknt.schema.SchemaRegistry";

	private final RegistryClient registryClient;

	private final boolean autoRegister;

	// Jackson 2, as the registry codecs speak it; java.time and other modules when present.
	private final ObjectMapper jsonMapper = new ObjectMapper().findAndRegisterModules();

	BuiltInCodecs(RegistryClient registryClient, boolean autoRegister) {
		this.registryClient = registryClient;
		this.autoRegister = autoRegister;
	}

	List<LockstepCodec> all() {
		return List.of(plain("bytes", (settings) -> new ByteArraySerializer(), (settings) -> new ByteArrayDeserializer()),
				plain("string", (settings) -> new StringSerializer(), (settings) -> new StringDeserializer()),
				plain("raw-avro", (settings) -> new RawAvroSerializer<>(recordType(settings)),
						(settings) -> new RawAvroDeserializer<>(recordType(settings))),
				new Codec("registry-avro", true, this::registryAvroSerializer, this::registryAvroDeserializer),
				new Codec("registry-json-schema", true, this::jsonSchemaSerializer, this::jsonSchemaDeserializer));
	}

	private static LockstepCodec plain(String name, Function<CodecSettings, Serializer<?>> serializer,
			Function<CodecSettings, Deserializer<?>> deserializer) {
		return new Codec(name, false, (settings) -> serializer.apply(settings.refuseSchema(name)),
				(settings) -> deserializer.apply(settings.refuseSchema(name)));
	}

	private Serializer<?> registryAvroSerializer(CodecSettings settings) {
		settings.refuseSchema("registry-avro");
		RegistryAvroSerializer<Object> serializer = new RegistryAvroSerializer<>(registry("registry-avro", settings));
		serializer.configure(avroConfig(settings), settings.isKey());
		return serializer;
	}

	private Deserializer<?> registryAvroDeserializer(CodecSettings settings) {
		settings.refuseSchema("registry-avro");
		RegistryAvroDeserializer<Object> deserializer = new RegistryAvroDeserializer<>(
				registry("registry-avro", settings));
		deserializer.configure(avroConfig(settings), settings.isKey());
		return deserializer;
	}

	private Serializer<?> jsonSchemaSerializer(CodecSettings settings) {
		RegistryJsonSchemaSerializer<Object> serializer = new RegistryJsonSchemaSerializer<>(jsonRegistry(settings),
				this.jsonMapper);
		configure(() -> serializer.configure(jsonConfig(settings), settings.isKey()), settings.property());
		return serializer;
	}

	private Deserializer<?> jsonSchemaDeserializer(CodecSettings settings) {
		RegistryJsonSchemaDeserializer<Object> deserializer = new RegistryJsonSchemaDeserializer<>(
				jsonRegistry(settings), this.jsonMapper);
		configure(() -> deserializer.configure(jsonConfig(settings), settings.isKey()), settings.property());
		return deserializer;
	}

	private Map<String, Object> avroConfig(CodecSettings settings) {
		Map<String, Object> config = new HashMap<>();
		config.put(RegistrySerdeConfig.AUTO_REGISTER_SCHEMAS, this.autoRegister);
		if (settings.type() != null) {
			config.put(RegistrySerdeConfig.KEY_TYPE, settings.type().getName());
			config.put(RegistrySerdeConfig.VALUE_TYPE, settings.type().getName());
		}
		return config;
	}

	private Map<String, Object> jsonConfig(CodecSettings settings) {
		Map<String, Object> config = new HashMap<>();
		config.put(RegistrySerdeConfig.AUTO_REGISTER_SCHEMAS, this.autoRegister);
		if (settings.schema() != null) {
			config.put(settings.isKey() ? RegistrySerdeConfig.JSON_KEY_SCHEMA : RegistrySerdeConfig.JSON_VALUE_SCHEMA,
					settings.schema());
		}
		else {
			config.put(RegistrySerdeConfig.USE_LATEST_VERSION, true);
		}
		if (settings.type() != null) {
			config.put(settings.isKey() ? RegistrySerdeConfig.JSON_KEY_TYPE : RegistrySerdeConfig.JSON_VALUE_TYPE,
					settings.type().getName());
		}
		return config;
	}

	private RegistryClient registry(String codec, CodecSettings settings) {
		if (this.registryClient == null) {
			throw new LockstepConfigurationException(settings.property() + ".codec", null,
					codec + " needs a schema registry, and none is configured",
					"Set lockstep.registry.url" + (codec.equals("registry-avro") ? ", or use raw-avro." : "."));
		}
		return this.registryClient;
	}

	private RegistryClient jsonRegistry(CodecSettings settings) {
		if (!ClassUtils.isPresent(JSON_SCHEMA_VALIDATOR, getClass().getClassLoader())) {
			throw new LockstepConfigurationException(settings.property() + ".codec", null,
					"registry-json-schema validates with networknt's JSON Schema validator, which is not on the "
							+ "class path",
					"Add the dependency com.networknt:json-schema-validator (its version is managed by Lockstep's "
							+ "parent: 2.0.8).");
		}
		return registry("registry-json-schema", settings);
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

	@SuppressWarnings("unchecked")
	private static Class<? extends SpecificRecord> recordType(CodecSettings settings) {
		Class<?> type = settings.type();
		if (type == null || !SpecificRecord.class.isAssignableFrom(type)) {
			throw new LockstepConfigurationException(settings.property() + ".type", null,
					(type == null) ? "raw-avro needs the generated record class"
							: type.getName() + " is not a generated Avro record",
					"Set " + settings.property() + ".type to a class generated by avro-maven-plugin.");
		}
		return (Class<? extends SpecificRecord>) type;
	}

	private record Codec(String name, boolean usesRegistry, Function<CodecSettings, Serializer<?>> serializers,
			Function<CodecSettings, Deserializer<?>> deserializers) implements LockstepCodec {

		@Override
		public Serializer<?> serializer(CodecSettings settings) {
			return this.serializers.apply(settings);
		}

		@Override
		public Deserializer<?> deserializer(CodecSettings settings) {
			return this.deserializers.apply(settings);
		}

	}

}
