package dev.lockstep.registry.avro;

import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.SchemaIdSource;
import dev.lockstep.registry.SchemaVersion;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.internal.WriterSchemas;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Encodes records in the Confluent wire format under one subject. The schema id is
 * resolved when the serializer is built, so a schema missing from the registry fails at
 * start-up rather than on the first record; the record path does no registry I/O.
 * A {@code null} value (a tombstone) stays {@code null}. Thread-safe.
 *
 * @param <T> the record type: a generated {@link SpecificRecord} or {@link GenericRecord}
 */
public final class AvroSerializer<T> {

	private final String subject;

	private final Schema schema;

	private final long schemaId;

	private final int maxBytes;

	private final DatumWriter<T> writer;

	private AvroSerializer(RegistryClient client, String subject, Schema schema, DatumWriter<T> writer,
			SchemaIdSource idSource, int maxBytes) {
		this.subject = subject;
		this.schema = schema;
		this.maxBytes = WireFormat.checkMaxBytes(maxBytes);
		this.writer = writer;
		this.schemaId = WriterSchemas.writable(client, subject, resolveId(client, subject, schema, idSource));
	}

	/**
	 * Create a serializer of generated records that looks their schema up under the
	 * subject, with the default 64 MiB message limit.
	 * @param <T> the generated record type
	 * @param client the registry client
	 * @param subject the subject, such as {@code orders-value}
	 * @param type the generated record class
	 * @return the serializer
	 * @throws RegistryException when the schema is not registered or the registry fails
	 * @throws org.apache.kafka.common.errors.SerializationException caused by a
	 * {@link dev.lockstep.registry.DataContractException} when the schema carries a data-contract
	 * rule to run on write
	 */
	public static <T extends SpecificRecord> AvroSerializer<T> specific(RegistryClient client, String subject,
			Class<T> type) {
		return specific(client, subject, type, SchemaIdSource.LOOKUP, WireFormat.DEFAULT_MAX_BYTES);
	}

	/**
	 * Create a serializer of generated records.
	 * @param <T> the generated record type
	 * @param client the registry client
	 * @param subject the subject
	 * @param type the generated record class
	 * @param idSource how the schema id is found
	 * @param maxBytes the largest framed message produced, 5 bytes to 1 GiB
	 * @return the serializer
	 */
	public static <T extends SpecificRecord> AvroSerializer<T> specific(RegistryClient client, String subject,
			Class<T> type, SchemaIdSource idSource, int maxBytes) {
		Schema schema = AvroTypes.schemaOf(type);
		return new AvroSerializer<>(client, subject, schema,
				new SpecificDatumWriter<>(schema, SpecificData.getForClass(type)), idSource, maxBytes);
	}

	/**
	 * Create a serializer of generic records of one schema.
	 * @param client the registry client
	 * @param subject the subject
	 * @param schema the records' schema
	 * @param idSource how the schema id is found
	 * @param maxBytes the largest framed message produced, 5 bytes to 1 GiB
	 * @return the serializer
	 */
	public static AvroSerializer<GenericRecord> generic(RegistryClient client, String subject, Schema schema,
			SchemaIdSource idSource, int maxBytes) {
		return new AvroSerializer<>(client, subject, schema, new GenericDatumWriter<>(schema, GenericData.get()),
				idSource, maxBytes);
	}

	/**
	 * Encode a record, framed with the resolved schema id.
	 * @param value the record, or {@code null}
	 * @return the framed message, or {@code null} for a {@code null} value
	 * @throws InvalidDataException when the record cannot be encoded or is too large
	 */
	public byte[] serialize(T value) {
		if (value == null) {
			return null;
		}
		if (value instanceof GenericContainer container && container.getSchema() != this.schema
				&& !container.getSchema().equals(this.schema)) {
			throw new InvalidDataException("Record of schema " + container.getSchema().getFullName()
					+ " does not match the schema of subject " + this.subject);
		}
		return AvroBinary.encode(this.writer, value, this.schemaId, this.maxBytes);
	}

	/**
	 * Return the id written in every message.
	 * @return the schema id
	 */
	public long schemaId() {
		return this.schemaId;
	}

	/**
	 * Return the subject the id was resolved under.
	 * @return the subject
	 */
	public String subject() {
		return this.subject;
	}

	private static long resolveId(RegistryClient client, String subject, Schema schema, SchemaIdSource idSource) {
		return switch (idSource) {
			case LOOKUP -> client.lookup(subject, schema);
			case AUTO_REGISTER -> client.register(subject, schema);
			case LATEST_VERSION -> {
				SchemaVersion latest = client.latestVersion(subject);
				if (!SchemaNormalization.toParsingForm(latest.schema()).equals(SchemaNormalization.toParsingForm(schema))) {
					throw new SerializationException("The latest version (" + latest.version() + ") of subject "
							+ subject + " is not the record's schema " + schema.getFullName()
							+ "; Lockstep writes records only with an id of their own schema");
				}
				yield latest.id();
			}
		};
	}

}
