package dev.lockstep.registry;

/**
 * How a registry serializer finds the schema id it writes, once, when it is built.
 */
public enum SchemaIdSource {

	/** Look the value's schema up under the subject; never create a version. */
	LOOKUP,

	/** Register the value's schema under the subject (or find it when present). */
	AUTO_REGISTER,

	/**
	 * Use the subject's latest version, which must be the value's schema (for Avro, in its
	 * parsing canonical form: docs, aliases and properties may differ).
	 */
	LATEST_VERSION

}
