package dev.lockstep.registry.kafka;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Message;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.SchemaIdFraming;
import dev.lockstep.registry.SchemaIdSource;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.protobuf.MessageIndexes;
import dev.lockstep.registry.protobuf.ProtobufSerializer;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A Kafka {@link Serializer} of generated Protobuf messages in the Confluent wire format,
 * configured with Confluent's keys: it writes what
 * {@code io.confluent.kafka.serializers.protobuf.KafkaProtobufSerializer} writes. Each
 * value's schema is its type's {@code .proto} file; as for Avro,
 * {@code auto.register.schemas} is {@code false}. The id of each topic's subject is
 * resolved once per message type, on its first value; under the record name strategies a
 * message's name is its full name. A {@code null} value (a tombstone) stays {@code null}.
 * See {@link RegistrySerdeConfig} for the keys.
 *
 * @param <T> the message type
 */
public class RegistryProtobufSerializer<T extends Message> implements Serializer<T> {

	private final ConcurrentMap<Descriptor, ConcurrentMap<String, ProtobufSerializer<T>>> byType = new ConcurrentHashMap<>();

	private RegistryClient client;

	private boolean isKey;

	private SchemaIdFraming framing = SchemaIdFraming.PREFIX;

	private SchemaIdSource idSource;

	private SubjectNameStrategy strategy;

	private int maxBytes;

	/**
	 * Create a serializer that builds its own registry client from its configuration.
	 */
	public RegistryProtobufSerializer() {
	}

	/**
	 * Create a serializer that uses a shared registry client; {@link #configure} still
	 * reads the other keys.
	 * @param client the registry client
	 */
	public RegistryProtobufSerializer(RegistryClient client) {
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
	 */
	public RegistryProtobufSerializer(RegistryClient client, boolean isKey, SchemaIdSource idSource,
			SubjectNameStrategy strategy, SchemaIdFraming framing, int maxBytes) {
		this.client = client;
		this.framing = framing;
		init(isKey, idSource, strategy, maxBytes);
	}

	@Override
	public void configure(Map<String, ?> configs, boolean isKey) {
		RegistrySerdeConfig config = RegistrySerdeConfig.of(configs, isKey);
		this.framing = config.schemaIdFraming();
		if (this.client == null) {
			this.client = config.createClient();
		}
		try {
			init(isKey, config.schemaIdSource(), config.subjectNameStrategy(), config.maxMessageBytes());
		}
		catch (IllegalArgumentException ex) {
			throw new ConfigException(ex.getMessage());
		}
	}

	private void init(boolean isKey, SchemaIdSource idSource, SubjectNameStrategy strategy, int maxBytes) {
		this.isKey = isKey;
		this.idSource = idSource;
		this.strategy = strategy;
		this.maxBytes = WireFormat.checkMaxBytes(maxBytes);
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
		// Only a header takes the message indexes along: the prefix keeps them where they are.
		int indexes = (this.framing == SchemaIdFraming.HEADER && framed != null)
				? MessageIndexes.decode(framed, WireFormat.HEADER_BYTES, framed.length - WireFormat.HEADER_BYTES).length()
				: 0;
		return SchemaIdHeaders.place(this.framing, this.client, framed, indexes, headers, this.isKey);
	}

	@Override
	public byte[] serialize(String topic, T data) {
		if (data == null) {
			return null;
		}
		if (this.strategy == null) {
			throw new IllegalStateException("RegistryProtobufSerializer used before configure()");
		}
		Descriptor type = data.getDescriptorForType();
		ConcurrentMap<String, ProtobufSerializer<T>> byTopic = this.byType.get(type);
		if (byTopic == null) {
			byTopic = this.byType.computeIfAbsent(type, (key) -> new ConcurrentHashMap<>());
		}
		ProtobufSerializer<T> serializer = byTopic.get(topic);
		if (serializer == null) {
			serializer = byTopic.computeIfAbsent(topic, (key) -> serializerFor(topic, type));
		}
		return serializer.serialize(data);
	}

	private ProtobufSerializer<T> serializerFor(String topic, Descriptor type) {
		String subject = this.strategy.subject(topic, this.isKey, type.getFullName());
		try {
			return ProtobufSerializer.of(this.client, subject, type, this.idSource, this.maxBytes);
		}
		catch (IllegalArgumentException ex) {
			throw new SerializationException(ex.getMessage(), ex);
		}
		catch (RegistryException ex) {
			throw new SerializationException("Could not resolve the Protobuf schema id of " + type.getFullName()
					+ " under subject " + subject + ": " + ex.getMessage(), ex);
		}
	}

}
