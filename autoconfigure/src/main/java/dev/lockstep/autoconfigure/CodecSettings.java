package dev.lockstep.autoconfigure;

import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;

/**
 * What the YAML says of one side of a topic's encoding, for a {@link LockstepCodec} to build
 * its serializer or deserializer from.
 *
 * @param property where it is configured, such as {@code lockstep.workers.normalizer.value},
 * for error messages
 * @param isKey whether it encodes keys
 * @param type the value class ({@code type:}), or {@code null}
 * @param schema the schema location ({@code schema:}), or {@code null}
 */
public record CodecSettings(String property, boolean isKey, Class<?> type, String schema) {

	/**
	 * Refuse a schema location, for codecs that have no use for one.
	 * @param codec the codec's name
	 * @return these settings
	 * @throws LockstepConfigurationException when a schema is set
	 */
	public CodecSettings refuseSchema(String codec) {
		if (this.schema != null) {
			throw new LockstepConfigurationException(this.property + ".schema", null,
					"the " + codec + " codec writes with no schema file",
					"Remove " + this.property + ".schema, or use a codec that takes one (registry-json-schema).");
		}
		return this;
	}

}
