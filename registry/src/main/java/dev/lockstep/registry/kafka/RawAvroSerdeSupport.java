package dev.lockstep.registry.kafka;

import java.util.Map;

import dev.lockstep.registry.avro.AvroTypes;
import dev.lockstep.registry.avro.RawAvroCodec;
import dev.lockstep.registry.internal.ClassLoaders;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.ConfigException;

/**
 * The configuration shared by the raw Avro serializer and deserializer.
 */
final class RawAvroSerdeSupport {

	private RawAvroSerdeSupport() {
	}

	@SuppressWarnings("unchecked")
	static <T extends SpecificRecord> RawAvroCodec<T> codec(Class<T> given, Map<String, ?> configs, boolean isKey) {
		RegistrySerdeConfig config = RegistrySerdeConfig.of(configs, isKey);
		String key = isKey ? RegistrySerdeConfig.KEY_TYPE : RegistrySerdeConfig.VALUE_TYPE;
		String configured = config.recordType();
		if (given != null && configured != null && !given.getName().equals(configured)) {
			throw new ConfigException(key, configured, "The serde was built for " + given.getName());
		}
		if (given == null && configured == null) {
			throw new ConfigException(key, null, "Raw Avro needs the generated record class");
		}
		Class<T> type = given;
		if (type == null) {
			try {
				type = (Class<T>) AvroTypes.trustedRecordClass(configured, ClassLoaders.contextOrLockstep());
			}
			catch (IllegalArgumentException ex) {
				throw new ConfigException(key, configured, ex.getMessage());
			}
		}
		return new RawAvroCodec<>(type, config.maxMessageBytes());
	}

	static <T extends SpecificRecord> RawAvroCodec<T> configured(RawAvroCodec<T> codec) {
		if (codec == null) {
			throw new IllegalStateException("Raw Avro serde used before configure()");
		}
		return codec;
	}

}
