package dev.lockstep.registry;

/**
 * One registered version of a subject, its schema unparsed (any format). See
 * {@link SchemaVersion} for an Avro subject's version with its schema parsed.
 *
 * @param subject the subject
 * @param version the version number, from 1
 * @param id the schema's id, an unsigned 32-bit value
 * @param schema the schema's type and text
 */
public record SubjectVersion(String subject, int version, long id, RegistrySchema schema) {

}
