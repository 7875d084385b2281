package dev.lockstep.autoconfigure;

import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.registry.SchemaIdFraming;
import dev.lockstep.registry.kafka.SubjectNameStrategy;

/**
 * What the YAML says of one side of a topic's encoding, for a {@link LockstepCodec} to build
 * its serializer or deserializer from.
 *
 * @param property where it is configured, such as {@code lockstep.workers.normalizer.value},
 * for error messages
 * @param isKey whether it encodes keys
 * @param type the value class ({@code type:}), or {@code null}
 * @param schema the schema location ({@code schema:}), or {@code null}
 * @param schemaId where a registry codec's serializer names the schema
 * ({@code schema-id:}): the prefix (the default) or a header
 * @param subjectNameStrategy the subject a registry codec's serializer writes under
 * ({@code subject-name-strategy:}), by default the topic's
 */
public record CodecSettings(String property, boolean isKey, Class<?> type, String schema, SchemaIdFraming schemaId,
		SubjectNameStrategy subjectNameStrategy) {

	/**
	 * Settings of a codec with the registry codecs' defaults: the schema id in the prefix,
	 * subjects named by topic.
	 * @param property where they are configured, for error messages
	 * @param isKey whether they encode keys
	 * @param type the value class, or {@code null}
	 * @param schema the schema location, or {@code null}
	 */
	public CodecSettings(String property, boolean isKey, Class<?> type, String schema) {
		this(property, isKey, type, schema, SchemaIdFraming.PREFIX, SubjectNameStrategy.TOPIC_NAME);
	}
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

	/**
	 * Refuse the settings of registry codecs ({@code schema-id: header},
	 * {@code subject-name-strategy}), for codecs that name no schema.
	 * @param codec the codec's name
	 * @return these settings
	 * @throws LockstepConfigurationException when one is set
	 */
	public CodecSettings refuseRegistrySettings(String codec) {
		if (this.schemaId == SchemaIdFraming.HEADER) {
			throw new LockstepConfigurationException(this.property + ".schema-id", null,
					"the " + codec + " codec names no schema, in a header or elsewhere",
					"Remove " + this.property + ".schema-id, or use a registry codec.");
		}
		if (this.subjectNameStrategy != SubjectNameStrategy.TOPIC_NAME) {
			throw new LockstepConfigurationException(this.property + ".subject-name-strategy", null,
					"the " + codec + " codec writes under no subject",
					"Remove " + this.property + ".subject-name-strategy, or use a registry codec.");
		}
		return this;
	}

}
