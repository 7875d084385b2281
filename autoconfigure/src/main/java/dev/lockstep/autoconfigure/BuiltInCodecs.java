package dev.lockstep.autoconfigure;

import java.util.List;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.SchemaIdSource;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.avro.AvroDeserializer;
import dev.lockstep.registry.avro.AvroTypes;
import dev.lockstep.registry.json.JsonSchema;
import dev.lockstep.registry.json.JsonSchemaDeserializer;
import dev.lockstep.registry.kafka.RawAvroDeserializer;
import dev.lockstep.registry.kafka.RawAvroSerializer;
import dev.lockstep.registry.kafka.RawJsonDeserializer;
import dev.lockstep.registry.kafka.RawJsonSerializer;
import dev.lockstep.registry.kafka.RegistryAvroSerializer;
import dev.lockstep.registry.kafka.RegistryJsonSchemaSerializer;
import dev.lockstep.registry.kafka.SubjectNameStrategy;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import org.springframework.util.ClassUtils;

/**
 * Lockstep's own codecs: bytes, UTF-8 strings, raw Avro, plain JSON, bare Protobuf, and
 * registry Avro, JSON Schema and Protobuf over the shared {@link RegistryClient}, each built from typed values (the record class,
 * the client, the schema), never from a configuration map a serde parses back.
 */
final class BuiltInCodecs {

	/** The codec of Avro through the registry. */
	static final String REGISTRY_AVRO = "registry-avro";

	/** The codec of JSON Schema through the registry. */
	static final String REGISTRY_JSON_SCHEMA = "registry-json-schema";

	/** The codec of Protobuf through the registry. */
	static final String REGISTRY_PROTOBUF = "registry-protobuf";

	/** The codec of bare Protobuf messages. */
	static final String PROTOBUF = "protobuf";

	private static final String JSON_SCHEMA_VALIDATOR = "com.networknt.schema.SchemaRegistry";

	private static final String PROTOBUF_JAVA = "com.google.protobuf.Message";

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
				plain("raw-avro", (settings) -> new RawAvroSerializer<>(recordType("raw-avro", settings)),
						(settings) -> new RawAvroDeserializer<>(recordType("raw-avro", settings))),
				plain("json", (settings) -> new RawJsonSerializer<>(this.jsonMapper),
						(settings) -> new RawJsonDeserializer<>(jsonType(settings), this.jsonMapper)),
				plain(PROTOBUF, (settings) -> ProtobufCodecs.rawSerializer(protobuf(PROTOBUF, settings)),
						(settings) -> ProtobufCodecs.rawDeserializer(protobuf(PROTOBUF, settings))),
				new Codec(REGISTRY_AVRO, true, this::registryAvroSerializer, this::registryAvroDeserializer),
				new Codec(REGISTRY_JSON_SCHEMA, true, this::jsonSchemaSerializer, this::jsonSchemaDeserializer),
				new Codec(REGISTRY_PROTOBUF, true, this::registryProtobufSerializer, this::registryProtobufDeserializer));
	}

	private static LockstepCodec plain(String name, Function<CodecSettings, Serializer<?>> serializer,
			Function<CodecSettings, Deserializer<?>> deserializer) {
		return new Codec(name, false,
				(settings) -> serializer.apply(settings.refuseSchema(name).refuseRegistrySettings(name)),
				(settings) -> deserializer.apply(settings.refuseSchema(name).refuseRegistrySettings(name)));
	}

	private Serializer<?> registryAvroSerializer(CodecSettings settings) {
		settings.refuseSchema(REGISTRY_AVRO);
		return new RegistryAvroSerializer<>(registry(REGISTRY_AVRO, settings), settings.isKey(), idSource(),
				settings.subjectNameStrategy(), settings.schemaId(), WireFormat.DEFAULT_MAX_BYTES,
				RegistryClient.Builder.DEFAULT_CACHE_CAPACITY);
	}

	private Deserializer<?> registryAvroDeserializer(CodecSettings settings) {
		settings.refuseSchema(REGISTRY_AVRO);
		RegistryClient client = registry(REGISTRY_AVRO, settings);
		// SpecificRecord itself: each record into the generated class its writer schema names
		// (a topic of several event types).
		AvroDeserializer<?> deserializer = (settings.type() == SpecificRecord.class)
				? AvroDeserializer.specificByWriterName(client, ClassUtils.getDefaultClassLoader(),
						WireFormat.DEFAULT_MAX_BYTES, AvroDeserializer.DEFAULT_CACHE_CAPACITY)
				: (settings.type() != null)
						? AvroDeserializer.specific(client, recordType(REGISTRY_AVRO, settings),
								WireFormat.DEFAULT_MAX_BYTES, AvroDeserializer.DEFAULT_CACHE_CAPACITY)
						: AvroDeserializer.generic(client, WireFormat.DEFAULT_MAX_BYTES,
								AvroDeserializer.DEFAULT_CACHE_CAPACITY);
		return new SchemaIdHeaderDeserializer<>(deserializer::deserialize, settings.isKey());
	}

	private Serializer<?> jsonSchemaSerializer(CodecSettings settings) {
		RegistryClient client = jsonRegistry(settings);
		JsonSchema schema = null;
		if (settings.schema() != null) {
			try {
				schema = JsonSchema.load(settings.schema(), getClass().getClassLoader());
			}
			catch (IllegalArgumentException ex) {
				throw new LockstepConfigurationException(settings.property() + ".schema", null, ex.getMessage(),
						"Point " + settings.property() + ".schema at a JSON schema: classpath:<resource> or a file.");
			}
		}
		// Without a schema of its own, the serializer writes with the subject's latest version.
		return new RegistryJsonSchemaSerializer<>(client, this.jsonMapper, settings.isKey(), schema,
				(schema != null) ? idSource() : SchemaIdSource.LATEST_VERSION, settings.subjectNameStrategy(),
				settings.schemaId(), true, WireFormat.DEFAULT_MAX_BYTES);
	}

	private Deserializer<?> jsonSchemaDeserializer(CodecSettings settings) {
		// A schema: is the writing side's (output-value defaults to value); readers use the writer's.
		JsonSchemaDeserializer<?> deserializer = JsonSchemaDeserializer.of(jsonRegistry(settings), jsonType(settings),
				this.jsonMapper, true, WireFormat.DEFAULT_MAX_BYTES, JsonSchemaDeserializer.DEFAULT_CACHE_CAPACITY);
		return new SchemaIdHeaderDeserializer<>(deserializer::deserialize, settings.isKey());
	}

	private Serializer<?> registryProtobufSerializer(CodecSettings settings) {
		settings.refuseSchema(REGISTRY_PROTOBUF);
		return ProtobufCodecs.registrySerializer(registry(REGISTRY_PROTOBUF, protobuf(REGISTRY_PROTOBUF, settings)),
				settings, idSource());
	}

	private Deserializer<?> registryProtobufDeserializer(CodecSettings settings) {
		settings.refuseSchema(REGISTRY_PROTOBUF);
		return ProtobufCodecs.registryDeserializer(registry(REGISTRY_PROTOBUF, protobuf(REGISTRY_PROTOBUF, settings)),
				settings);
	}

	private static Class<?> jsonType(CodecSettings settings) {
		return (settings.type() != null) ? settings.type() : JsonNode.class;
	}

	private CodecSettings protobuf(String codec, CodecSettings settings) {
		if (!ClassUtils.isPresent(PROTOBUF_JAVA, getClass().getClassLoader())) {
			throw new LockstepConfigurationException(settings.property() + ".codec", null,
					codec + " needs protobuf-java, which is not on the class path",
					"Add the dependency com.google.protobuf:protobuf-java (its version is managed by Lockstep's "
							+ "BOM: 4.36.2).");
		}
		return settings;
	}

	private SchemaIdSource idSource() {
		return this.autoRegister ? SchemaIdSource.AUTO_REGISTER : SchemaIdSource.LOOKUP;
	}

	private RegistryClient registry(String codec, CodecSettings settings) {
		if (this.registryClient == null) {
			throw new LockstepConfigurationException(settings.property() + ".codec", null,
					codec + " needs a schema registry, and none is configured",
					"Set lockstep.registry.url" + (codec.equals(REGISTRY_AVRO) ? ", or use raw-avro." : "."));
		}
		return this.registryClient;
	}

	private RegistryClient jsonRegistry(CodecSettings settings) {
		if (!ClassUtils.isPresent(JSON_SCHEMA_VALIDATOR, getClass().getClassLoader())) {
			throw new LockstepConfigurationException(settings.property() + ".codec", null,
					"registry-json-schema validates with networknt's JSON Schema validator, which is not on the "
							+ "class path",
					"Add the dependency com.networknt:json-schema-validator (its version is managed by Lockstep's "
							+ "BOM: 2.0.8).");
		}
		return registry(REGISTRY_JSON_SCHEMA, settings);
	}

	@SuppressWarnings("unchecked")
	private static <T extends SpecificRecord> Class<T> recordType(String codec, CodecSettings settings) {
		Class<?> type = settings.type();
		if (type == null || !SpecificRecord.class.isAssignableFrom(type)) {
			throw new LockstepConfigurationException(settings.property() + ".type", null,
					(type == null) ? codec + " needs the generated record class"
							: type.getName() + " is not a generated Avro record",
					"Set " + settings.property() + ".type to a class generated by avro-maven-plugin.");
		}
		try {
			// A SpecificRecord that is not generated (SpecificRecordBase itself) has no schema.
			AvroTypes.schemaOf((Class<T>) type);
		}
		catch (RuntimeException ex) {
			throw new LockstepConfigurationException(settings.property() + ".type", null,
					type.getName() + " is not a generated Avro record: " + ex.getMessage(),
					"Set " + settings.property() + ".type to a class generated by avro-maven-plugin.");
		}
		return (Class<T>) type;
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
