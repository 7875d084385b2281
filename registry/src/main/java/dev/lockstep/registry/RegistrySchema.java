package dev.lockstep.registry;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A schema as the registry holds it: its type, its text, unparsed, and its references to
 * other subjects' versions. The format's codecs parse it ({@code dev.lockstep.registry.avro},
 * {@code .json}, {@code .protobuf}), with the referenced schemas
 * {@link RegistryClient#referencedSchemas(RegistrySchema) the client resolves}.
 *
 * @param type the registry's {@code schemaType}: {@link #AVRO}, {@link #JSON} or
 * {@link #PROTOBUF}
 * @param text the schema text
 * @param references its references, empty for none
 */
public record RegistrySchema(String type, String text, List<SchemaReference> references) {

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
