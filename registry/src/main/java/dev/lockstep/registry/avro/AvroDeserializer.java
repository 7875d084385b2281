package dev.lockstep.registry.avro;

import java.util.function.Function;

import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.SchemaId;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.internal.BoundedCache;
import dev.lockstep.registry.internal.WriterSchemas;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Decodes Confluent wire-format messages: fetches the writer schema by id, resolves it
 * against the reader type with Avro's evolution rules, and caches the prepared reader per
 * writer id (bounded). Refuses bad magic, unknown ids, ids of other schema types, invalid
 * writer schemas, incompatible evolution, truncated data and trailing bytes with an
 * {@link InvalidDataException}; a registry that cannot be
 * reached gives a plain {@link SerializationException} caused by a
 * {@link RegistryException}. A {@code null} message (a tombstone) stays {@code null}.
 * Thread-safe.
 *
 * @param <T> the record type: a generated {@link SpecificRecord} or {@link GenericRecord}
 */
public final class AvroDeserializer<T> {

	/** Default number of prepared readers kept. */
	public static final int DEFAULT_CACHE_CAPACITY = 64;

	private final RegistryClient client;

	private final int maxBytes;

	private final Function<SchemaId, DatumReader<T>> readerFactory;

	private final BoundedCache<SchemaId, DatumReader<T>> readers;

	private AvroDeserializer(RegistryClient client, int maxBytes, int cacheCapacity,
			Function<Schema, DatumReader<T>> readerForWriter) {
		this.client = client;
		this.maxBytes = WireFormat.checkMaxBytes(maxBytes);
		this.readers = new BoundedCache<>(cacheCapacity);
		this.readerFactory = (id) -> readerForWriter.apply(writerSchema(id));
	}

	/**
	 * Create a deserializer into a generated record type with default limits.
	 * @param <T> the generated record type
	 * @param client the registry client
	 * @param type the generated record class (the reader schema)
	 * @return the deserializer
	 */
	public static <T extends SpecificRecord> AvroDeserializer<T> specific(RegistryClient client, Class<T> type) {
		return specific(client, type, WireFormat.DEFAULT_MAX_BYTES, DEFAULT_CACHE_CAPACITY);
	}

	/**
	 * Create a deserializer into a generated record type.
	 * @param <T> the generated record type
	 * @param client the registry client
	 * @param type the generated record class (the reader schema)
	 * @param maxBytes the largest framed message accepted, 5 bytes to 1 GiB
	 * @param cacheCapacity the number of prepared readers kept, 1 to 1,024
	 * @return the deserializer
	 */
	public static <T extends SpecificRecord> AvroDeserializer<T> specific(RegistryClient client, Class<T> type,
			int maxBytes, int cacheCapacity) {
		return new AvroDeserializer<>(client, maxBytes, cacheCapacity,
				(writer) -> AvroTypes.specificReader(writer, type, maxBytes));
	}

	/**
	 * Create a deserializer into the generated class named like each message's writer
	 * schema (as Confluent's {@code specific.avro.reader} does). Only classes that are
	 * generated Avro records are used; a writer schema naming anything else is invalid data.
	 * @param client the registry client
	 * @param classLoader where the generated classes are
	 * @param maxBytes the largest framed message accepted, 5 bytes to 1 GiB
	 * @param cacheCapacity the number of prepared readers kept, 1 to 1,024
	 * @return the deserializer
	 */
	public static AvroDeserializer<SpecificRecord> specificByWriterName(RegistryClient client, ClassLoader classLoader,
			int maxBytes, int cacheCapacity) {
		return new AvroDeserializer<>(client, maxBytes, cacheCapacity, (writer) -> {
			Class<? extends SpecificRecord> type;
			try {
				type = AvroTypes.trustedRecordClass(writer.getFullName(), classLoader);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidDataException("No generated class for writer schema " + writer.getFullName() + ": "
						+ ex.getMessage(), ex);
			}
			@SuppressWarnings("unchecked")
			DatumReader<SpecificRecord> reader = (DatumReader<SpecificRecord>) AvroTypes.specificReader(writer, type,
					maxBytes);
			return reader;
		});
	}

	/**
	 * Create a deserializer into generic records of each message's writer schema.
	 * @param client the registry client
	 * @param maxBytes the largest framed message accepted, 5 bytes to 1 GiB
	 * @param cacheCapacity the number of prepared readers kept, 1 to 1,024
	 * @return the deserializer
	 */
	public static AvroDeserializer<GenericRecord> generic(RegistryClient client, int maxBytes, int cacheCapacity) {
		return new AvroDeserializer<>(client, maxBytes, cacheCapacity,
				(writer) -> AvroTypes.genericReader(writer, maxBytes));
	}

	/**
	 * Decode a framed message.
	 * @param message the framed message, or {@code null}
	 * @return the record, or {@code null} for a {@code null} message
	 * @throws InvalidDataException when the message can never be decoded
	 * @throws SerializationException caused by a {@link RegistryException} when the
	 * writer schema could not be fetched (retry later)
	 */
	public T deserialize(byte[] message) {
		return deserialize(null, message);
	}

	/**
	 * Decode a message whose writer schema a record header may name
	 * ({@link WireFormat#open}).
	 * @param schemaIdHeader the value of the record's schema id header, or {@code null}
	 * @param message the framed message, or the bare datum after a header; or {@code null}
	 * @return the record, or {@code null} for a {@code null} message
	 * @throws InvalidDataException when the message can never be decoded
	 * @throws SerializationException caused by a {@link RegistryException} when the
	 * writer schema could not be fetched (retry later)
	 */
	public T deserialize(byte[] schemaIdHeader, byte[] message) {
		if (message == null) {
			return null;
		}
		WireFormat.Envelope envelope = WireFormat.open(schemaIdHeader, message, this.maxBytes)
			.requireNothingAfterTheId();
		DatumReader<T> reader = this.readers.get(envelope.schemaId());
		if (reader == null) {
			reader = this.readerFactory.apply(envelope.schemaId());
			this.readers.put(envelope.schemaId(), reader);
		}
		return AvroBinary.decode(reader, message, envelope.offset(), envelope.length());
	}

	/**
	 * Forget the prepared readers (the registry client keeps its own cache).
	 */
	public void clearCache() {
		this.readers.clear();
	}

	private Schema writerSchema(SchemaId id) {
		// Its type and data contract first; the parsed schema comes from the same cached text.
		WriterSchemas.schema(this.client, id, RegistrySchema.AVRO);
		return WriterSchemas.fetch(this.client, id, this.client::avroSchema);
	}

}
