package dev.lockstep.registry.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.SchemaIdSource;
import dev.lockstep.registry.SubjectVersion;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.internal.WriterSchemas;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Encodes values as JSON in the Confluent wire format (magic byte {@code 0}, the schema's
 * 4-byte id, the value's UTF-8 JSON) under one subject, as Confluent's
 * {@code KafkaJsonSchemaSerializer} does. Values are a Jackson-mapped class or a
 * {@link JsonNode}; each is validated against the schema first unless validation is
 * off, and a value that does not match is {@link InvalidDataException} (Confluent's
 * {@code json.fail.invalid.schema=true}). The schema id is resolved when the serializer
 * is built, so the record path does no registry I/O. A {@code null} value (a tombstone)
 * stays {@code null}. Thread-safe.
 *
 * @param <T> the value type
 */
public final class JsonSchemaSerializer<T> {

	private final String subject;

	private final JsonSchema schema;

	private final long schemaId;

	private final ObjectMapper mapper;

	private final boolean validate;

	private final int maxBytes;

	private JsonSchemaSerializer(String subject, JsonSchema schema, long schemaId, ObjectMapper mapper,
			boolean validate, int maxBytes) {
		this.subject = subject;
		this.schema = schema;
		this.schemaId = schemaId;
		this.mapper = mapper;
		this.validate = validate;
		this.maxBytes = maxBytes;
	}

	/**
	 * Create a serializer that looks its schema up under the subject, validates every
	 * value and writes messages of at most 64 MiB.
	 * @param <T> the value type
	 * @param client the registry client
	 * @param subject the subject, such as {@code orders-value}
	 * @param schema the values' schema
	 * @param mapper how values become JSON
	 * @return the serializer
	 * @throws RegistryException when the schema is not registered or the registry fails
	 * @throws org.apache.kafka.common.errors.SerializationException caused by a
	 * {@link dev.lockstep.registry.DataContractException} when the schema carries a data-contract
	 * rule to run on write
	 */
	public static <T> JsonSchemaSerializer<T> of(RegistryClient client, String subject, JsonSchema schema,
			ObjectMapper mapper) {
		return of(client, subject, schema, mapper, SchemaIdSource.LOOKUP, true, WireFormat.DEFAULT_MAX_BYTES);
	}

	/**
	 * Create a serializer.
	 * @param <T> the value type
	 * @param client the registry client
	 * @param subject the subject
	 * @param schema the values' schema; may be {@code null} with
	 * {@link SchemaIdSource#LATEST_VERSION}, which then writes with the latest version's
	 * schema
	 * @param mapper how values become JSON
	 * @param idSource how the schema id is found
	 * @param validate whether each value is validated against the schema
	 * @param maxBytes the largest framed message produced, 5 bytes to 1 GiB
	 * @return the serializer
	 * @throws RegistryException when the registry fails or does not have the schema
	 * @throws org.apache.kafka.common.errors.SerializationException caused by a
	 * {@link dev.lockstep.registry.DataContractException} when the schema carries a data-contract
	 * rule to run on write
	 * @throws SerializationException when the latest version is not the given schema
	 */
	public static <T> JsonSchemaSerializer<T> of(RegistryClient client, String subject, JsonSchema schema,
			ObjectMapper mapper, SchemaIdSource idSource, boolean validate, int maxBytes) {
		WireFormat.checkMaxBytes(maxBytes);
		if (schema == null && idSource != SchemaIdSource.LATEST_VERSION) {
			throw new IllegalArgumentException("A schema is needed unless the latest version's is used");
		}
		return switch (idSource) {
			case LOOKUP -> new JsonSchemaSerializer<>(subject, schema,
					WriterSchemas.writable(client, subject, client.lookup(subject, schema.registrySchema())), mapper, validate, maxBytes);
			case AUTO_REGISTER -> new JsonSchemaSerializer<>(subject, schema,
					WriterSchemas.writable(client, subject, client.register(subject, schema.registrySchema())),
					mapper, validate, maxBytes);
			case LATEST_VERSION -> {
				SubjectVersion latest = client.latestSubjectVersion(subject);
				JsonSchema latestSchema = latestSchema(latest);
				if (schema != null && !schema.equals(latestSchema)) {
					throw new SerializationException("The latest version (" + latest.version() + ") of subject "
							+ subject + " is not the values' schema; Lockstep writes values only with an id of "
							+ "their own schema");
				}
				yield new JsonSchemaSerializer<>(subject, latestSchema, WriterSchemas.writable(client, subject,
						latest.id()), mapper, validate, maxBytes);
			}
		};
	}

	/**
	 * Encode a value, framed with the resolved schema id.
	 * @param value the value, or {@code null}
	 * @return the framed message, or {@code null} for a {@code null} value
	 * @throws InvalidDataException when the value cannot be mapped to JSON, does not match
	 * the schema or is too large
	 */
	public byte[] serialize(T value) {
		if (value == null) {
			return null;
		}
		byte[] json;
		try {
			// As Confluent's serializer writes it: the value straight through the mapper.
			json = this.mapper.writeValueAsBytes(value);
		}
		catch (InvalidDefinitionException ex) {
			// The class cannot be written at all: the application's fault, not the value's.
			throw new SerializationException(value.getClass().getName() + " cannot be written as JSON: "
					+ ex.getMessage(), ex);
		}
		catch (JsonProcessingException ex) {
			throw new InvalidDataException(
					"A " + value.getClass().getName() + " cannot be written as JSON: " + ex.getMessage(), ex);
		}
		if (this.validate) {
			// What is validated is what is written, read back as a reader will.
			this.schema.requireValid((value instanceof JsonNode node) ? node : JsonSchema.read(json),
					"Value does not match the schema of subject " + this.subject);
		}
		return WireFormat.frame(this.schemaId, json, this.maxBytes);
	}

	/**
	 * Return the id written in every message.
	 * @return the schema id
	 */
	public long schemaId() {
		return this.schemaId;
	}

	/**
	 * Return the schema values are validated against.
	 * @return the schema
	 */
	public JsonSchema schema() {
		return this.schema;
	}

	private static JsonSchema latestSchema(SubjectVersion latest) {
		if (!latest.schema().type().equals(RegistrySchema.JSON)) {
			throw new SerializationException("The latest version of subject " + latest.subject() + " is a "
					+ latest.schema().type() + " schema, not JSON");
		}
		try {
			return JsonSchema.parse(latest.schema().text());
		}
		catch (IllegalArgumentException ex) {
			throw new SerializationException("The latest version of subject " + latest.subject() + ": "
					+ ex.getMessage(), ex);
		}
	}

}
