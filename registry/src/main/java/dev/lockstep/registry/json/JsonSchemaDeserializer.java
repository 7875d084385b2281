package dev.lockstep.registry.json;

import java.io.IOException;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.SchemaId;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.internal.BoundedCache;
import dev.lockstep.registry.internal.StrictJson;
import dev.lockstep.registry.internal.WriterSchemas;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Decodes Confluent wire-format JSON (as Confluent's {@code KafkaJsonSchemaSerializer}
 * writes it) into a Jackson-mapped class or a {@link JsonNode}: fetches the writer's JSON
 * schema by id (cached, bounded; an id that is not a JSON schema's is refused), reads exactly one JSON value (no trailing bytes, no
 * duplicate keys), validates it against the writer's schema unless validation is off, and
 * maps it. Bad magic, unknown ids, ids of other schema types, malformed or invalid JSON and
 * values the class cannot hold are {@link InvalidDataException}; a registry that cannot be
 * reached gives a plain {@link SerializationException} caused by a
 * {@link RegistryException}. A {@code null} message (a tombstone) stays {@code null}.
 * Thread-safe.
 *
 * @param <T> the value type
 */
public final class JsonSchemaDeserializer<T> {

	/** Default number of writer schemas kept. */
	public static final int DEFAULT_CACHE_CAPACITY = 64;

	private final RegistryClient client;

	private final Class<T> type;

	private final ObjectMapper mapper;

	private final boolean validate;

	private final int maxBytes;

	private final BoundedCache<SchemaId, JsonSchema> schemas;

	private JsonSchemaDeserializer(RegistryClient client, Class<T> type, ObjectMapper mapper, boolean validate,
			int maxBytes, int cacheCapacity) {
		this.client = client;
		this.type = type;
		this.mapper = mapper;
		this.validate = validate;
		this.maxBytes = WireFormat.checkMaxBytes(maxBytes);
		this.schemas = new BoundedCache<>(cacheCapacity);
	}

	/**
	 * Create a deserializer into a class with default limits, validating every value.
	 * @param <T> the value type
	 * @param client the registry client
	 * @param type the class values are mapped to ({@link JsonNode} for the tree itself)
	 * @param mapper how JSON becomes values
	 * @return the deserializer
	 */
	public static <T> JsonSchemaDeserializer<T> of(RegistryClient client, Class<T> type, ObjectMapper mapper) {
		return of(client, type, mapper, true, WireFormat.DEFAULT_MAX_BYTES, DEFAULT_CACHE_CAPACITY);
	}

	/**
	 * Create a deserializer.
	 * @param <T> the value type
	 * @param client the registry client
	 * @param type the class values are mapped to ({@link JsonNode} for the tree itself)
	 * @param mapper how JSON becomes values
	 * @param validate whether each value is validated against its writer's schema
	 * @param maxBytes the largest framed message accepted, 5 bytes to 1 GiB
	 * @param cacheCapacity the number of writer schemas kept, 1 to 1,024
	 * @return the deserializer
	 */
	public static <T> JsonSchemaDeserializer<T> of(RegistryClient client, Class<T> type, ObjectMapper mapper,
			boolean validate, int maxBytes, int cacheCapacity) {
		return new JsonSchemaDeserializer<>(client, type, mapper, validate, maxBytes, cacheCapacity);
	}

	/**
	 * Decode a framed message.
	 * @param message the framed message, or {@code null}
	 * @return the value, or {@code null} for a {@code null} message
	 * @throws InvalidDataException when the message can never be decoded
	 * @throws SerializationException caused by a {@link RegistryException} when the
	 * writer schema could not be fetched (retry later)
	 */
	public T deserialize(byte[] message) {
		return deserialize(null, message);
	}

	/**
	 * Decode a message whose writer schema a record header may name
	 * ({@link WireFormat#open}).
	 * @param schemaIdHeader the value of the record's schema id header, or {@code null}
	 * @param message the framed message, or the bare JSON after a header; or {@code null}
	 * @return the value, or {@code null} for a {@code null} message
	 * @throws InvalidDataException when the message can never be decoded
	 * @throws SerializationException caused by a {@link RegistryException} when the
	 * writer schema could not be fetched (retry later)
	 */
	public T deserialize(byte[] schemaIdHeader, byte[] message) {
		if (message == null) {
			return null;
		}
		WireFormat.Envelope frame = WireFormat.open(schemaIdHeader, message, this.maxBytes)
			.requireNothingAfterTheId();
		JsonSchema schema = writerSchema(frame.schemaId());
		JsonNode tree;
		try {
			tree = StrictJson.read(message, frame.offset(), frame.length());
		}
		catch (IOException | StackOverflowError ex) {
			throw new InvalidDataException("Malformed JSON after schema id " + frame.schemaId() + ": "
					+ ex.getMessage(), ex);
		}
		if (tree == null || tree.isMissingNode()) {
			throw new InvalidDataException("No JSON value after schema id " + frame.schemaId());
		}
		if (this.validate) {
			schema.requireValid(tree, "Value does not match its writer schema " + frame.schemaId());
		}
		return StrictJson.toValue(this.mapper, tree, this.type, "JSON of schema id " + frame.schemaId());
	}

	/**
	 * Forget the writer schemas (the registry client keeps its own cache).
	 */
	public void clearCache() {
		this.schemas.clear();
	}

	private JsonSchema writerSchema(SchemaId id) {
		JsonSchema schema = this.schemas.get(id);
		if (schema == null) {
			RegistrySchema written = WriterSchemas.schema(this.client, id, RegistrySchema.JSON);
			Map<String, String> references = WriterSchemas.references(this.client, id, written);
			try {
				schema = JsonSchema.parse(written.text(), references);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidDataException("Writer schema " + id + ": " + ex.getMessage(), ex);
			}
			this.schemas.put(id, schema);
		}
		return schema;
	}

}
