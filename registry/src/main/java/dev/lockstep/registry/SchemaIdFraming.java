package dev.lockstep.registry;

/**
 * Where a registry serializer names the writer schema: in the payload's prefix (magic
 * byte 0 and the id, what every Confluent client reads) or, as Confluent Platform 8's
 * {@code HeaderSchemaIdSerializer} writes, in a record header by GUID in front of a bare
 * payload. Readers read either ({@link WireFormat#open}).
 */
public enum SchemaIdFraming {

	/** Magic byte 0 and the four-byte id before the payload (the default). */
	PREFIX,

	/**
	 * Magic byte 1 and the schema's GUID (and a Protobuf message's indexes) in the
	 * {@value WireFormat#VALUE_SCHEMA_ID_HEADER} or {@value WireFormat#KEY_SCHEMA_ID_HEADER}
	 * header, the payload bare; needs a registry that names schemas by GUID (Confluent
	 * Platform 8, Lockstep's development registry).
	 */
	HEADER

}
