package dev.lockstep.registry.kafka;

import java.util.Map;

import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.avro.AvroDeserializer;
import dev.lockstep.registry.avro.AvroTypes;
import dev.lockstep.registry.internal.ClassLoaders;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A Kafka {@link Deserializer} of Confluent wire-format Avro, configured with Confluent's
 * keys: replacing {@code io.confluent.kafka.serializers.KafkaAvroDeserializer} with this
 * class name is enough.
 * <p>
 * It returns generic records of the writer schema by default; generated records with
 * {@code specific.avro.reader=true} (the class named like the writer schema) or with
 * {@code lockstep.avro.value.type} / {@code lockstep.avro.key.type} naming the reader
 * class, which also gives schema evolution into that class. Malformed bytes throw
 * {@link dev.lockstep.registry.InvalidDataException}; registry outages throw a plain
 * {@link org.apache.kafka.common.errors.SerializationException}. A {@code null} value
 * (a tombstone) stays {@code null}.
 *
 * @param <T> the record type
 */
public class RegistryAvroDeserializer<T> implements Deserializer<T> {

	private RegistryClient client;

	private boolean isKey;

	private AvroDeserializer<T> deserializer;

	/**
	 * Create a deserializer that builds its own registry client from its configuration.
	 */
	public RegistryAvroDeserializer() {
	}

	/**
	 * Create a deserializer that uses a shared registry client; {@link #configure} still
	 * reads the other keys.
	 * @param client the registry client
	 */
	public RegistryAvroDeserializer(RegistryClient client) {
		this.client = client;
	}

	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public void configure(Map<String, ?> configs, boolean isKey) {
		this.isKey = isKey;
		RegistrySerdeConfig config = RegistrySerdeConfig.of(configs, isKey);
		if (this.client == null) {
			this.client = config.createClient();
		}
		ClassLoader classLoader = ClassLoaders.contextOrLockstep();
		String type = config.recordType();
		boolean specific = config.specificReader();
		if (type != null) {
			Class recordClass;
			try {
				recordClass = AvroTypes.trustedRecordClass(type, classLoader);
			}
			catch (IllegalArgumentException ex) {
				throw new ConfigException(isKey ? RegistrySerdeConfig.KEY_TYPE : RegistrySerdeConfig.VALUE_TYPE, type,
						ex.getMessage());
			}
			this.deserializer = AvroDeserializer.specific(this.client, recordClass, config.maxMessageBytes(),
					config.cacheCapacity());
		}
		else if (specific) {
			this.deserializer = (AvroDeserializer<T>) AvroDeserializer.specificByWriterName(this.client, classLoader,
					config.maxMessageBytes(), config.cacheCapacity());
		}
		else {
			this.deserializer = (AvroDeserializer<T>) AvroDeserializer.generic(this.client, config.maxMessageBytes(),
					config.cacheCapacity());
		}
	}

	@Override
	public T deserialize(String topic, byte[] data) {
		return deserialize(topic, null, data);
	}

	/**
	 * Decode a record's key or value; a schema id header
	 * ({@value WireFormat#VALUE_SCHEMA_ID_HEADER}, {@value WireFormat#KEY_SCHEMA_ID_HEADER})
	 * with a value names the writer schema in front of a bare payload, as Confluent's
	 * {@code DualSchemaIdDeserializer} reads it.
	 */
	@Override
	public T deserialize(String topic, Headers headers, byte[] data) {
		if (this.deserializer == null) {
			throw new IllegalStateException("RegistryAvroDeserializer used before configure()");
		}
		return this.deserializer.deserialize(WireFormat.schemaIdHeader(headers, this.isKey), data);
	}

}
