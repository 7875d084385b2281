package dev.lockstep.registry;

import org.apache.avro.Schema;

/**
 * One registered version of a subject.
 *
 * @param subject the subject
 * @param version the version number, from 1
 * @param id the schema's id, an unsigned 32-bit value
 * @param schema the Avro schema
 */
public record SchemaVersion(String subject, int version, long id, Schema schema) {

}
