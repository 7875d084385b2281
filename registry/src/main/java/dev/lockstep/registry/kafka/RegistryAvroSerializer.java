package dev.lockstep.registry.kafka;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.SchemaIdFraming;
import dev.lockstep.registry.SchemaIdSource;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.avro.AvroSerializer;
import dev.lockstep.registry.internal.BoundedCache;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A Kafka {@link Serializer} of Avro records (generated or generic) in the Confluent wire
 * format, configured with Confluent's keys: replacing
 * {@code io.confluent.kafka.serializers.KafkaAvroSerializer} with this class name is
 * enough. Unlike Confluent's default, {@code auto.register.schemas} is {@code false}: a
 * schema must be registered before records of it are written (or set the key to
 * {@code true}).
 * <p>
 * The schema id of each (topic, schema) pair is resolved once, on its first record; the
 * record path then does no registry I/O. A {@code null} value (a tombstone) stays
 * {@code null}. See {@link RegistrySerdeConfig} for the keys.
 *
 * @param <T> the record type
 */
public class RegistryAvroSerializer<T> implements Serializer<T> {

	private RegistryClient client;

	private SubjectNameStrategy strategy;

	private SchemaIdSource idSource;

	private boolean isKey;

	private SchemaIdFraming framing = SchemaIdFraming.PREFIX;

	private int maxBytes;

	// The last serializer used per topic: the common case of one schema per topic takes
	// one map read and an identity comparison.
	private final ConcurrentMap<String, Prepared<T>> lastByTopic = new ConcurrentHashMap<>();

	private BoundedCache<TopicSchema, AvroSerializer<T>> prepared;

	/**
	 * Create a serializer that builds its own registry client from its configuration.
	 */
	public RegistryAvroSerializer() {
	}

	/**
	 * Create a serializer that uses a shared registry client; {@link #configure} still
	 * reads the other keys.
	 * @param client the registry client
	 */
	public RegistryAvroSerializer(RegistryClient client) {
		this.client = client;
	}

	/**
	 * Create a serializer from typed values, ready without {@link #configure}.
	 * @param client the registry client
	 * @param isKey whether it serializes keys
	 * @param idSource how each subject's schema id is found
	 * @param strategy how a topic's subject is named
	 * @param framing where the schema id goes: the prefix, or a header by GUID
	 * @param maxBytes the largest framed message produced, 5 bytes to 1 GiB
	 * @param cacheCapacity the number of (topic, schema) serializers kept
	 */
	public RegistryAvroSerializer(RegistryClient client, boolean isKey, SchemaIdSource idSource,
			SubjectNameStrategy strategy, SchemaIdFraming framing, int maxBytes, int cacheCapacity) {
		this.client = client;
		this.framing = framing;
		init(isKey, idSource, strategy, maxBytes, cacheCapacity);
	}

	@Override
	public void configure(Map<String, ?> configs, boolean isKey) {
		RegistrySerdeConfig config = RegistrySerdeConfig.of(configs, isKey);
		this.framing = config.schemaIdFraming();
		if (this.client == null) {
			this.client = config.createClient();
		}
		init(isKey, config.schemaIdSource(), config.subjectNameStrategy(), config.maxMessageBytes(),
				config.cacheCapacity());
	}

	private void init(boolean isKey, SchemaIdSource idSource, SubjectNameStrategy strategy, int maxBytes,
			int cacheCapacity) {
		this.isKey = isKey;
		this.idSource = idSource;
		this.strategy = strategy;
		this.maxBytes = WireFormat.checkMaxBytes(maxBytes);
		this.prepared = new BoundedCache<>(cacheCapacity);
	}

	/**
	 * Encode a record's key or value with its schema id where the framing puts it: in the
	 * prefix, removing the record's schema id header of the same side (one copied from an
	 * input record would name another schema and win over the prefix in a reader that
	 * reads both), or in that header by GUID, the payload bare.
	 */
	@Override
	public byte[] serialize(String topic, Headers headers, T data) {
		byte[] framed = serialize(topic, data);
		return SchemaIdHeaders.place(this.framing, this.client, framed, 0, headers, this.isKey);
	}

	@Override
	public byte[] serialize(String topic, T data) {
		if (data == null) {
			return null;
		}
		if (this.prepared == null) {
			throw new IllegalStateException("RegistryAvroSerializer used before configure()");
		}
		if (!(data instanceof GenericContainer container)) {
			throw new InvalidDataException(
					"RegistryAvroSerializer writes Avro records, not " + data.getClass().getName());
		}
		Schema schema = container.getSchema();
		Prepared<T> last = this.lastByTopic.get(topic);
		if (last == null || last.schema() != schema) {
			last = new Prepared<>(schema, serializerFor(topic, schema, data));
			this.lastByTopic.put(topic, last);
		}
		return last.serializer().serialize(data);
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private AvroSerializer<T> serializerFor(String topic, Schema schema, T data) {
		TopicSchema key = new TopicSchema(topic, schema);
		AvroSerializer<T> serializer = this.prepared.get(key);
		if (serializer != null) {
			return serializer;
		}
		String subject = this.strategy.subject(topic, this.isKey, schema);
		try {
			serializer = (data instanceof SpecificRecord)
					? (AvroSerializer<T>) AvroSerializer.specific(this.client, subject, (Class) data.getClass(),
							this.idSource, this.maxBytes)
					: (AvroSerializer<T>) AvroSerializer.generic(this.client, subject, schema, this.idSource,
							this.maxBytes);
		}
		catch (RegistryException ex) {
			throw new SerializationException("Could not resolve the schema id of " + schema.getFullName()
					+ " under subject " + subject + ": " + ex.getMessage(), ex);
		}
		this.prepared.put(key, serializer);
		return serializer;
	}

	private record Prepared<T>(Schema schema, AvroSerializer<T> serializer) {

	}

	private record TopicSchema(String topic, Schema schema) {

	}

}
