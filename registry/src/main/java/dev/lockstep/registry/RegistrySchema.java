package dev.lockstep.registry;

import java.util.Locale;
import java.util.Objects;

/**
 * A schema as the registry holds it: its type and its text, unparsed. The format's codecs
 * parse it ({@code dev.lockstep.registry.avro}, {@code dev.lockstep.registry.json}).
 *
 * @param type the registry's {@code schemaType}: {@link #AVRO}, {@link #JSON} or
 * {@link #PROTOBUF}
 * @param text the schema text
 */
public record RegistrySchema(String type, String text) {

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
	 */
	public RegistrySchema {
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(text, "text");
		type = type.toUpperCase(Locale.ROOT);
		if (!type.equals(AVRO) && !type.equals(JSON) && !type.equals(PROTOBUF)) {
			throw new IllegalArgumentException("Unknown schema type " + type + "; expected AVRO, JSON or PROTOBUF");
		}
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
