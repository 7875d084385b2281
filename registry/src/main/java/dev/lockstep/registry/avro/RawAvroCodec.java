package dev.lockstep.registry.avro;

import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.WireFormat;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Raw Avro (no registry framing) for topics whose writer schema every participant
 * already knows: the generated type's own schema. Decoding is as strict as the registry
 * codecs: malformed, truncated, oversized data and trailing bytes are refused. A
 * {@code null} value (a tombstone) stays {@code null} both ways. Thread-safe.
 *
 * @param <T> the generated record type
 */
public final class RawAvroCodec<T extends SpecificRecord> {

	private final Class<T> type;

	private final Schema schema;

	private final int maxBytes;

	private final DatumWriter<T> writer;

	private final DatumReader<T> reader;

	/**
	 * Create a codec with the default 64 MiB message limit.
	 * @param type the generated record class
	 */
	public RawAvroCodec(Class<T> type) {
		this(type, WireFormat.DEFAULT_MAX_BYTES);
	}

	/**
	 * Create a codec.
	 * @param type the generated record class
	 * @param maxBytes the largest message accepted or produced, 5 bytes to 1 GiB
	 */
	public RawAvroCodec(Class<T> type, int maxBytes) {
		this.type = type;
		this.schema = AvroTypes.schemaOf(type);
		this.maxBytes = WireFormat.checkMaxBytes(maxBytes);
		this.writer = new SpecificDatumWriter<>(this.schema, SpecificData.getForClass(type));
		this.reader = AvroTypes.specificReader(this.schema, type, maxBytes);
	}

	/**
	 * Encode a record.
	 * @param value the record, or {@code null}
	 * @return its raw Avro bytes, or {@code null} for a {@code null} value
	 */
	public byte[] encode(T value) {
		return (value != null) ? AvroBinary.encode(this.writer, value, -1, this.maxBytes) : null;
	}

	/**
	 * Decode a record.
	 * @param bytes raw Avro bytes, or {@code null}
	 * @return the record, or {@code null} for {@code null} bytes
	 * @throws InvalidDataException when the bytes are not exactly one valid datum
	 */
	public T decode(byte[] bytes) {
		if (bytes == null) {
			return null;
		}
		if (bytes.length > this.maxBytes) {
			throw new InvalidDataException(
					"Message of " + bytes.length + " bytes exceeds the limit of " + this.maxBytes + " bytes");
		}
		return AvroBinary.decode(this.reader, bytes, 0, bytes.length);
	}

	/**
	 * Return the writer and reader schema: the generated type's.
	 * @return the schema
	 */
	public Schema schema() {
		return this.schema;
	}

	/**
	 * Return the generated record class.
	 * @return the type
	 */
	public Class<T> type() {
		return this.type;
	}

}
