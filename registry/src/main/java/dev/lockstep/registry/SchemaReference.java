package dev.lockstep.registry;

import java.util.Objects;

/**
 * A schema's reference to another subject's version, as the registry holds it: an Avro
 * named type, a Protobuf import or a JSON Schema {@code $ref} that another subject defines.
 *
 * @param name the name the schema uses for it: the Avro type's full name, the Protobuf
 * import path, the JSON {@code $ref}
 * @param subject the subject that holds it
 * @param version the subject's version, from 1
 */
public record SchemaReference(String name, String subject, int version) {

	/**
	 * Create a reference.
	 * @param name the name the schema uses for it
	 * @param subject the subject that holds it
	 * @param version the version, from 1
	 */
	public SchemaReference {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(subject, "subject");
		if (version < 1) {
			throw new IllegalArgumentException("A reference's version is at least 1, not " + version);
		}
	}

}
