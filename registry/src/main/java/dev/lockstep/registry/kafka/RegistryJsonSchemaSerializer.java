package dev.lockstep.registry.kafka;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.SchemaIdFraming;
import dev.lockstep.registry.SchemaIdSource;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.internal.ClassLoaders;
import dev.lockstep.registry.json.JsonSchema;
import dev.lockstep.registry.json.JsonSchemaSerializer;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A Kafka {@link Serializer} of JSON values (a Jackson-mapped class or a {@link JsonNode})
 * in the Confluent wire format, configured with Confluent's keys: it writes what
 * {@code io.confluent.kafka.serializers.json.KafkaJsonSchemaSerializer} writes. The schema
 * is {@code lockstep.json.value.schema} ({@code classpath:} or a file; {@code ...key.schema}
 * for keys), or the subject's latest version with {@code use.latest.version=true}. Values
 * are validated against it ({@code json.fail.invalid.schema}, {@code true} unlike
 * Confluent's default) and, as for Avro, {@code auto.register.schemas} is {@code false}.
 * The id of each topic's subject is resolved once, on its first value. A {@code null}
 * value (a tombstone) stays {@code null}. See {@link RegistrySerdeConfig} for the keys.
 *
 * @param <T> the value type
 */
public class RegistryJsonSchemaSerializer<T> implements Serializer<T> {

	private final ObjectMapper mapper;

	private final ConcurrentMap<String, JsonSchemaSerializer<T>> byTopic = new ConcurrentHashMap<>();

	private RegistryClient client;

	private boolean isKey;

	private SchemaIdFraming framing = SchemaIdFraming.PREFIX;

	private JsonSchema schema;

	private SchemaIdSource idSource;

	private SubjectNameStrategy strategy;

	private boolean validate;

	private int maxBytes;

	/**
	 * Create a serializer that builds its own registry client from its configuration.
	 */
	public RegistryJsonSchemaSerializer() {
		// As Confluent's: java.time, Optional and other modules on the class path registered.
		this(null, new ObjectMapper().findAndRegisterModules());
	}

	/**
	 * Create a serializer that uses a shared registry client and object mapper;
	 * {@link #configure} still reads the other keys.
	 * @param client the registry client, or {@code null} to build one from the configuration
	 * @param mapper how values become JSON
	 */
	public RegistryJsonSchemaSerializer(RegistryClient client, ObjectMapper mapper) {
		this.client = client;
		this.mapper = mapper;
	}

	/**
	 * Create a serializer from typed values, ready without {@link #configure}.
	 * @param client the registry client
	 * @param mapper how values become JSON
	 * @param isKey whether it serializes keys
	 * @param schema the values' schema; {@code null} with
	 * {@link SchemaIdSource#LATEST_VERSION} for the latest version's
	 * @param idSource how each subject's schema id is found
	 * @param strategy how a topic's subject is named (a record name is the schema's
	 * {@code title})
	 * @param framing where the schema id goes: the prefix, or a header by GUID
	 * @param validate whether each value is validated against the schema
	 * @param maxBytes the largest framed message produced, 5 bytes to 1 GiB
	 * @throws IllegalArgumentException when a schema is needed and missing, or the
	 * strategy needs a title the schema does not have
	 */
	public RegistryJsonSchemaSerializer(RegistryClient client, ObjectMapper mapper, boolean isKey, JsonSchema schema,
			SchemaIdSource idSource, SubjectNameStrategy strategy, SchemaIdFraming framing, boolean validate,
			int maxBytes) {
		this.client = client;
		this.framing = framing;
		this.mapper = mapper;
		init(isKey, schema, idSource, strategy, validate, maxBytes, "a schema");
	}

	@Override
	public void configure(Map<String, ?> configs, boolean isKey) {
		RegistrySerdeConfig config = RegistrySerdeConfig.of(configs, isKey);
		this.framing = config.schemaIdFraming();
		if (this.client == null) {
			this.client = config.createClient();
		}
		String key = isKey ? RegistrySerdeConfig.JSON_KEY_SCHEMA : RegistrySerdeConfig.JSON_VALUE_SCHEMA;
		String location = config.jsonSchemaLocation();
		JsonSchema schema = null;
		if (location != null) {
			try {
				schema = JsonSchema.load(location, ClassLoaders.contextOrLockstep());
			}
			catch (IllegalArgumentException ex) {
				throw new ConfigException(key, location, ex.getMessage());
			}
		}
		try {
			init(isKey, schema, config.schemaIdSource(), config.subjectNameStrategy(), config.jsonValidate(),
					config.maxMessageBytes(), key);
		}
		catch (IllegalArgumentException ex) {
			throw new ConfigException(ex.getMessage());
		}
	}

	private void init(boolean isKey, JsonSchema schema, SchemaIdSource idSource, SubjectNameStrategy strategy,
			boolean validate, int maxBytes, String schemaSetting) {
		if (schema == null && idSource != SchemaIdSource.LATEST_VERSION) {
			throw new IllegalArgumentException("A JSON schema serializer needs the schema it writes: set "
					+ schemaSetting + " (classpath:<resource> or a file), or " + RegistrySerdeConfig.USE_LATEST_VERSION
					+ "=true");
		}
		if (schema == null && strategy != SubjectNameStrategy.TOPIC_NAME) {
			throw new IllegalArgumentException(strategy + " names the subject by the schema's \"title\": set "
					+ schemaSetting);
		}
		this.isKey = isKey;
		this.schema = schema;
		this.idSource = idSource;
		this.strategy = strategy;
		this.validate = validate;
		this.maxBytes = WireFormat.checkMaxBytes(maxBytes);
		// Fail now, not on the first value, when no subject could ever be named.
		if (schema != null) {
			subject("topic");
		}
	}

	/**
	 * Encode a record's key or value with its schema id where the framing puts it: in the
	 * prefix, removing the record's schema id header of the same side (one copied from an
	 * input record would name another schema and win over the prefix in a reader that
	 * reads both), or in that header by GUID, the payload bare.
	 */
	@Override
	public byte[] serialize(String topic, Headers headers, T data) {
		byte[] framed = serialize(topic, data);
		return SchemaIdHeaders.place(this.framing, this.client, framed, 0, headers, this.isKey);
	}

	@Override
	public byte[] serialize(String topic, T data) {
		if (data == null) {
			return null;
		}
		if (this.strategy == null) {
			throw new IllegalStateException("RegistryJsonSchemaSerializer used before configure()");
		}
		return this.byTopic.computeIfAbsent(topic, this::serializerFor).serialize(data);
	}

	private JsonSchemaSerializer<T> serializerFor(String topic) {
		String subject = subject(topic);
		try {
			return JsonSchemaSerializer.of(this.client, subject, this.schema, this.mapper, this.idSource, this.validate,
					this.maxBytes);
		}
		catch (RegistryException ex) {
			throw new SerializationException("Could not resolve the JSON schema id under subject " + subject + ": "
					+ ex.getMessage(), ex);
		}
	}

	private String subject(String topic) {
		try {
			return this.strategy.subject(topic, this.isKey, (this.schema != null) ? this.schema.title() : null);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(ex.getMessage() + " (a JSON schema's name is its \"title\")", ex);
		}
	}

}
