package dev.lockstep.registry.protobuf;

import java.io.IOException;
import java.util.Map;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.SchemaId;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.internal.BoundedCache;
import dev.lockstep.registry.internal.WriterSchemas;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Decodes Confluent wire-format Protobuf (as Confluent's {@code KafkaProtobufSerializer}
 * writes it): fetches the writer's schema by id (cached, bounded; an id that is not a
 * Protobuf schema's is refused), finds the writer's message by the message indexes, and
 * reads the payload as a generated type, as the generated class of the writer's message
 * (found as Confluent's {@code derive.type} finds it), or as a {@link DynamicMessage} of
 * the writer's descriptor. A generated reader takes only messages its type's full name
 * wrote (Confluent's would parse any message as it); fields it does not know are kept as
 * unknown fields. Bad magic, bad indexes, unknown ids, ids of other schema types and
 * malformed payloads are {@link InvalidDataException}; a registry that cannot be reached
 * gives a plain {@link SerializationException} caused by a {@link RegistryException}. A
 * {@code null} message (a tombstone) stays {@code null}. Thread-safe.
 *
 * @param <T> the message type
 */
public final class ProtobufDeserializer<T extends Message> {

	/** Default number of writer schemas kept. */
	public static final int DEFAULT_CACHE_CAPACITY = 64;

	private final RegistryClient client;

	private final Descriptor reader;

	private final Parser<T> parser;

	private final int maxBytes;

	private final BoundedCache<SchemaId, ProtobufSchema> schemas;

	private final GeneratedClasses generatedClasses;

	private ProtobufDeserializer(RegistryClient client, Descriptor reader, Parser<T> parser, int maxBytes,
			int cacheCapacity, ClassLoader generatedClassLoader) {
		this.client = client;
		this.reader = reader;
		this.parser = parser;
		this.maxBytes = WireFormat.checkMaxBytes(maxBytes);
		this.schemas = new BoundedCache<>(cacheCapacity);
		this.generatedClasses = (generatedClassLoader != null)
				? new GeneratedClasses(generatedClassLoader, cacheCapacity) : null;
	}

	/**
	 * Create a deserializer into a generated type.
	 * @param <T> the message type
	 * @param client the registry client
	 * @param defaultInstance the type's default instance, such as
	 * {@code Order.getDefaultInstance()}
	 * @param maxBytes the largest framed message accepted, 5 bytes to 1 GiB
	 * @param cacheCapacity the number of writer schemas kept, 1 to 1,024
	 * @return the deserializer
	 */
	@SuppressWarnings("unchecked")
	public static <T extends Message> ProtobufDeserializer<T> specific(RegistryClient client, T defaultInstance,
			int maxBytes, int cacheCapacity) {
		return new ProtobufDeserializer<>(client, defaultInstance.getDescriptorForType(),
				(Parser<T>) defaultInstance.getParserForType(), maxBytes, cacheCapacity, null);
	}

	/**
	 * Create a deserializer into the generated class of each writer's message, named as
	 * protoc's Java generator names it from the writer schema's file (its
	 * {@code java_package}, {@code java_outer_classname} and {@code java_multiple_files}
	 * options, else its package and file name), as Confluent's {@code derive.type} does.
	 * A writer message whose class is missing, or is no generated message of that full
	 * name, is invalid data.
	 * @param client the registry client
	 * @param classLoader where the generated classes are
	 * @param maxBytes the largest framed message accepted, 5 bytes to 1 GiB
	 * @param cacheCapacity the number of writer schemas and of classes kept, 1 to 1,024
	 * @return the deserializer
	 */
	public static ProtobufDeserializer<Message> specificByWriterName(RegistryClient client, ClassLoader classLoader,
			int maxBytes, int cacheCapacity) {
		return new ProtobufDeserializer<>(client, null, null, maxBytes, cacheCapacity, classLoader);
	}

	/**
	 * Create a deserializer into messages of each writer's own descriptor.
	 * @param client the registry client
	 * @param maxBytes the largest framed message accepted, 5 bytes to 1 GiB
	 * @param cacheCapacity the number of writer schemas kept, 1 to 1,024
	 * @return the deserializer
	 */
	public static ProtobufDeserializer<DynamicMessage> dynamic(RegistryClient client, int maxBytes,
			int cacheCapacity) {
		return new ProtobufDeserializer<>(client, null, null, maxBytes, cacheCapacity, null);
	}

	/**
	 * Decode a framed message.
	 * @param message the framed message, or {@code null}
	 * @return the message, or {@code null} for a {@code null} message
	 * @throws InvalidDataException when the message can never be decoded
	 * @throws SerializationException caused by a {@link RegistryException} when the
	 * writer schema could not be fetched (retry later)
	 */
	public T deserialize(byte[] message) {
		return deserialize(null, message);
	}

	/**
	 * Decode a message whose writer schema a record header may name
	 * ({@link WireFormat#open}): then the header holds the message indexes after the
	 * schema's id, and the message is the bare Protobuf encoding.
	 * @param schemaIdHeader the value of the record's schema id header, or {@code null}
	 * @param message the framed message, or the bare encoding after a header; or {@code null}
	 * @return the message, or {@code null} for a {@code null} message
	 * @throws InvalidDataException when the message can never be decoded
	 * @throws SerializationException caused by a {@link RegistryException} when the
	 * writer schema could not be fetched (retry later)
	 */
	@SuppressWarnings("unchecked")
	public T deserialize(byte[] schemaIdHeader, byte[] message) {
		if (message == null) {
			return null;
		}
		WireFormat.Envelope frame = WireFormat.open(schemaIdHeader, message, this.maxBytes);
		boolean inHeader = frame.header() != null;
		MessageIndexes.Read indexes = inHeader
				? MessageIndexes.decode(frame.header(), frame.headerRest(), frame.header().length - frame.headerRest())
				: MessageIndexes.decode(message, frame.offset(), frame.length());
		ProtobufSchema writerSchema = writerSchema(frame.schemaId());
		Descriptor writer = writerSchema.messageAt(indexes.indexes());
		if (writer == null) {
			throw new InvalidDataException("Message indexes " + indexes + " name no message of writer schema "
					+ frame.schemaId());
		}
		if (this.reader != null && !writer.getFullName().equals(this.reader.getFullName())) {
			throw new InvalidDataException("Schema id " + frame.schemaId() + " wrote a " + writer.getFullName()
					+ ", not a " + this.reader.getFullName());
		}
		int offset = inHeader ? frame.offset() : frame.offset() + indexes.length();
		int length = inHeader ? frame.length() : frame.length() - indexes.length();
		try {
			if (this.parser != null) {
				return this.parser.parseFrom(message, offset, length);
			}
			if (this.generatedClasses != null) {
				return (T) this.generatedClasses.parser(writerSchema, writer).parseFrom(message, offset, length);
			}
			return (T) DynamicMessage.parseFrom(writer, CodedInputStream.newInstance(message, offset, length));
		}
		catch (IOException ex) {
			throw new InvalidDataException("Malformed " + writer.getFullName() + " after schema id "
					+ frame.schemaId() + ": " + ex.getMessage(), ex);
		}
	}

	/**
	 * Forget the writer schemas (the registry client keeps its own cache).
	 */
	public void clearCache() {
		this.schemas.clear();
	}

	// A text the .proto parser here cannot read, as the registry's own parser serialized it
	// (format=serialized, Confluent 5.5+): asked for only then, so that an outage costs no
	// second request. A registry that cannot serialize it answers the same text, or refuses
	// (a client error: invalid data); a server error is retried (Apicurio 3.3.3 answers 500
	// for a schema it stores as a descriptor, which this path never asks for: it parses).
	private ProtobufSchema serializedByTheRegistry(SchemaId id, RegistrySchema written, Map<String, String> imports,
			Throwable unreadable) {
		RegistrySchema serialized;
		try {
			serialized = this.client.serializedSchema(id);
		}
		catch (RegistryException ex) {
			if (ex.isRetryable() || ex.errorCode() == WriterSchemas.SCHEMA_NOT_FOUND) {
				throw new SerializationException("Could not fetch writer schema " + id + " as the registry "
						+ "serializes it: " + ex.getMessage(), ex);
			}
			// The registry refuses the format for good: the text is all there is.
			throw new InvalidDataException("Writer schema " + id + ": " + unreadable.getMessage()
					+ "; the registry refused to serialize it: " + ex.getMessage(), ex);
		}
		if (serialized.text().equals(written.text())) {
			throw new InvalidDataException("Writer schema " + id + ": " + unreadable.getMessage(), unreadable);
		}
		try {
			return ProtobufSchema.parse(serialized.text(), imports);
		}
		catch (IllegalArgumentException | StackOverflowError ex) {
			throw new InvalidDataException("Writer schema " + id + ": " + unreadable.getMessage()
					+ "; as the registry serialized it: " + ex.getMessage(), ex);
		}
	}

	private ProtobufSchema writerSchema(SchemaId id) {
		ProtobufSchema schema = this.schemas.get(id);
		if (schema == null) {
			RegistrySchema written = WriterSchemas.schema(this.client, id, RegistrySchema.PROTOBUF);
			Map<String, String> imports = WriterSchemas.references(this.client, id, written);
			try {
				schema = ProtobufSchema.parse(written.text(), imports);
			}
			catch (IllegalArgumentException | StackOverflowError ex) {
				schema = serializedByTheRegistry(id, written, imports, ex);
			}
			this.schemas.put(id, schema);
		}
		return schema;
	}

}
