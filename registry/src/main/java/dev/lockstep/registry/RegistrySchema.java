package dev.lockstep.registry;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A schema as the registry holds it: its type, its text, unparsed, its references to
 * other subjects' versions, and its data contract (Confluent's {@code metadata} and
 * {@code ruleSet}, kept as the registry's JSON). The format's codecs parse it
 * ({@code dev.lockstep.registry.avro}, {@code .json}, {@code .protobuf}), with the
 * referenced schemas {@link RegistryClient#referencedSchemas(RegistrySchema) the client
 * resolves}; the codecs refuse a rule they would have to run ({@link DataContractException}).
 *
 * @param type the registry's {@code schemaType}: {@link #AVRO}, {@link #JSON} or
 * {@link #PROTOBUF}
 * @param text the schema text
 * @param references its references, empty for none
 * @param metadata the {@code metadata} object as compact JSON, or {@code null} for none
 * @param ruleSet the {@code ruleSet} object as compact JSON, or {@code null} for none
 */
public record RegistrySchema(String type, String text, List<SchemaReference> references, String metadata,
		String ruleSet) {

	/** The type of Avro schemas (the registry's default when a response names none). */
	public static final String AVRO = "AVRO";

	/** The type of JSON schemas. */
	public static final String JSON = "JSON";

	/** The type of Protobuf schemas. */
	public static final String PROTOBUF = "PROTOBUF";

	/**
	 * Create a schema of a type.
	 * @param type AVRO, JSON or PROTOBUF, in any case
	 * @param text the schema text
	 * @param references its references, empty or {@code null} for none
	 */
	public RegistrySchema {
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(text, "text");
		references = (references != null) ? List.copyOf(references) : List.of();
		type = type.toUpperCase(Locale.ROOT);
		if (!type.equals(AVRO) && !type.equals(JSON) && !type.equals(PROTOBUF)) {
			throw new IllegalArgumentException("Unknown schema type " + type + "; expected AVRO, JSON or PROTOBUF");
		}
	}

	/**
	 * Create a schema of a type without a data contract.
	 * @param type AVRO, JSON or PROTOBUF, in any case
	 * @param text the schema text
	 * @param references its references, empty or {@code null} for none
	 */
	public RegistrySchema(String type, String text, List<SchemaReference> references) {
		this(type, text, references, null, null);
	}

	/**
	 * Create a schema of a type without references.
	 * @param type AVRO, JSON or PROTOBUF, in any case
	 * @param text the schema text
	 */
	public RegistrySchema(String type, String text) {
		this(type, text, List.of());
	}

	/**
	 * Create a JSON schema.
	 * @param text the schema text
	 * @return the schema
	 */
	public static RegistrySchema json(String text) {
		return new RegistrySchema(JSON, text);
	}

}
