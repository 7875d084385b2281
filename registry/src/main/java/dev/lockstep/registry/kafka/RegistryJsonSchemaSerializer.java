package dev.lockstep.registry.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.SchemaIdSource;
import dev.lockstep.registry.json.JsonSchema;
import dev.lockstep.registry.json.JsonSchemaSerializer;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Utils;

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

	private RegistrySerdeConfig config;

	private JsonSchema schema;

	/**
	 * Create a serializer that builds its own registry client from its configuration.
	 */
	public RegistryJsonSchemaSerializer() {
		this(null, new ObjectMapper());
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

	@Override
	public void configure(Map<String, ?> configs, boolean isKey) {
		this.config = RegistrySerdeConfig.of(configs, isKey);
		if (this.client == null) {
			this.client = this.config.createClient();
		}
		String location = this.config.jsonSchemaLocation();
		if (location == null && !this.config.useLatestVersion()) {
			throw new ConfigException("A JSON schema serializer needs the schema it writes: set "
					+ (isKey ? RegistrySerdeConfig.JSON_KEY_SCHEMA : RegistrySerdeConfig.JSON_VALUE_SCHEMA)
					+ " (classpath:<resource> or a file), or " + RegistrySerdeConfig.USE_LATEST_VERSION + "=true");
		}
		this.schema = (location != null) ? load(location, isKey) : null;
		// Fail at start-up, not on the first value, when no subject could ever be named.
		if (this.schema != null) {
			subject("topic");
		}
	}

	@Override
	public byte[] serialize(String topic, T data) {
		if (data == null) {
			return null;
		}
		if (this.config == null) {
			throw new IllegalStateException("RegistryJsonSchemaSerializer used before configure()");
		}
		return this.byTopic.computeIfAbsent(topic, this::serializerFor).serialize(data);
	}

	private JsonSchemaSerializer<T> serializerFor(String topic) {
		String subject = subject(topic);
		SchemaIdSource idSource = this.config.useLatestVersion() ? SchemaIdSource.LATEST_VERSION
				: this.config.autoRegister() ? SchemaIdSource.AUTO_REGISTER : SchemaIdSource.LOOKUP;
		try {
			return JsonSchemaSerializer.of(this.client, subject, this.schema, this.mapper, idSource,
					this.config.jsonValidate(), this.config.maxMessageBytes());
		}
		catch (RegistryException ex) {
			throw new SerializationException("Could not resolve the JSON schema id under subject " + subject + ": "
					+ ex.getMessage(), ex);
		}
	}

	private String subject(String topic) {
		JsonNode title = (this.schema != null) ? this.schema.tree().get("title") : null;
		try {
			return this.config.subjectNameStrategy()
				.subject(topic, this.config.isKey(), (title != null && title.isTextual()) ? title.textValue() : null);
		}
		catch (IllegalArgumentException ex) {
			throw new ConfigException(ex.getMessage() + " (a JSON schema's name is its \"title\")");
		}
	}

	private static JsonSchema load(String location, boolean isKey) {
		String key = isKey ? RegistrySerdeConfig.JSON_KEY_SCHEMA : RegistrySerdeConfig.JSON_VALUE_SCHEMA;
		try (InputStream in = open(location)) {
			if (in == null) {
				throw new ConfigException(key, location, "No such resource");
			}
			byte[] text = in.readNBytes(RegistryClient.MAX_SCHEMA_BYTES + 1);
			if (text.length > RegistryClient.MAX_SCHEMA_BYTES) {
				throw new ConfigException(key, location, "Schema over " + RegistryClient.MAX_SCHEMA_BYTES + " bytes");
			}
			return JsonSchema.parse(new String(text, StandardCharsets.UTF_8));
		}
		catch (IOException | IllegalArgumentException ex) {
			throw new ConfigException(key, location, ex.getMessage());
		}
	}

	private static InputStream open(String location) throws IOException {
		if (location.startsWith("classpath:")) {
			String resource = location.substring("classpath:".length()).replaceFirst("^/", "");
			return Utils.getContextOrKafkaClassLoader().getResourceAsStream(resource);
		}
		return Files.newInputStream(Path.of(location));
	}

}
