package dev.lockstep.registry;

import java.util.UUID;

/**
 * The writer schema a message names: a registry id (magic byte 0 and four bytes) or, as
 * Confluent Platform 8 writes into a header, a GUID (magic byte 1 and sixteen bytes).
 *
 * @param id the unsigned 32-bit id, or {@code -1} when the message names a GUID
 * @param guid the GUID, or {@code null} when the message names an id
 */
public record SchemaId(long id, UUID guid) {

	/**
	 * Create a reference to a schema; exactly one of id and GUID is given.
	 * @param id the unsigned 32-bit id, or {@code -1}
	 * @param guid the GUID, or {@code null}
	 */
	public SchemaId {
		if ((guid == null) == (id == -1)) {
			throw new IllegalArgumentException("A schema id is an id or a GUID, not " + id + " and " + guid);
		}
		if (guid == null) {
			WireFormat.checkSchemaId(id);
		}
	}

	/**
	 * Refer to a schema by id.
	 * @param id the unsigned 32-bit id
	 * @return the reference
	 */
	public static SchemaId of(long id) {
		return new SchemaId(id, null);
	}

	/**
	 * Refer to a schema by GUID.
	 * @param guid the GUID
	 * @return the reference
	 */
	public static SchemaId of(UUID guid) {
		return new SchemaId(-1, guid);
	}

	/**
	 * Return whether this names a GUID.
	 * @return whether it does
	 */
	public boolean isGuid() {
		return this.guid != null;
	}

	@Override
	public String toString() {
		return isGuid() ? this.guid.toString() : Long.toString(this.id);
	}

}
