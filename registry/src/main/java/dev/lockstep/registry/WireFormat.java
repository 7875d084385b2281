package dev.lockstep.registry;

import java.util.Locale;
import java.util.UUID;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The Confluent wire format: a zero magic byte, the writer schema's id as four big-endian
 * bytes, then the payload (one raw Avro datum, or a value's UTF-8 JSON). Confluent
 * Platform 8 also names the writer schema by GUID (magic byte 1, sixteen bytes), in the
 * payload's prefix or in a record header ({@value #VALUE_SCHEMA_ID_HEADER},
 * {@value #KEY_SCHEMA_ID_HEADER}) in front of a bare payload: {@link #open} reads all of
 * them. Framing only: nothing here fetches or checks schemas.
 */
public final class WireFormat {

	/** The magic byte that starts every framed message. */
	public static final byte MAGIC_BYTE = 0;

	/** The magic byte of a schema named by GUID. */
	public static final byte MAGIC_BYTE_GUID = 1;

	/** The record header that names a value's writer schema in front of a bare payload. */
	public static final String VALUE_SCHEMA_ID_HEADER = "__value_schema_id";

	/** The record header that names a key's writer schema in front of a bare payload. */
	public static final String KEY_SCHEMA_ID_HEADER = "__key_schema_id";

	private static final int GUID_BYTES = 16;

	/** Bytes of envelope before the datum: magic byte and schema id. */
	public static final int HEADER_BYTES = 5;

	/** Default limit of a framed message, envelope included: 64 MiB. */
	public static final int DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

	/** Largest limit a caller may configure: 1 GiB. */
	public static final int MAX_MAX_BYTES = 1024 * 1024 * 1024;

	/** Largest schema id: ids are unsigned 32-bit. */
	public static final long MAX_SCHEMA_ID = 0xFFFF_FFFFL;

	private WireFormat() {
	}

	/**
	 * A framed message's schema id and where its datum lies in the message.
	 *
	 * @param schemaId the writer schema's id
	 * @param message the whole message, not copied
	 * @param offset where the datum starts in {@code message}
	 * @param length the datum's length
	 */
	public record Frame(long schemaId, byte[] message, int offset, int length) {

	}

	/**
	 * Where a message names its writer schema, and where its datum lies.
	 *
	 * @param schemaId the writer schema's id or GUID
	 * @param header the schema id header's value the id was read from, or {@code null}
	 * when it was read from the message's prefix
	 * @param headerRest where the header's bytes after the id start (a Protobuf message's
	 * indexes), 0 without a header
	 * @param message the whole message, not copied
	 * @param offset where the datum starts in {@code message} (for Protobuf read from the
	 * prefix: its message indexes)
	 * @param length the datum's length
	 */
	public record Envelope(SchemaId schemaId, byte[] header, int headerRest, byte[] message, int offset,
			int length) {

		/**
		 * Refuse a schema id header with bytes after the id, for formats that put nothing
		 * there (only Protobuf's message indexes follow an id).
		 * @return this envelope
		 * @throws InvalidDataException when the header has more bytes
		 */
		public Envelope requireNothingAfterTheId() {
			if (this.header != null && this.headerRest != this.header.length) {
				throw new InvalidDataException("Schema id header has " + (this.header.length - this.headerRest)
						+ " bytes after the schema's id; only Protobuf message indexes may follow it");
			}
			return this;
		}

	}

	/**
	 * Read where a message names its writer schema, as Confluent's
	 * {@code DualSchemaIdDeserializer} does: a schema id header with a value wins, the
	 * message being the bare datum; otherwise the message's prefix. Either names an id
	 * (magic byte 0) or a GUID (magic byte 1).
	 * @param header the value of the record's last {@link #VALUE_SCHEMA_ID_HEADER} (or
	 * {@link #KEY_SCHEMA_ID_HEADER}) header, or {@code null}
	 * @param message the message
	 * @param maxBytes the largest message accepted, envelope included
	 * @return the schema and where the datum lies
	 * @throws InvalidDataException when the id is truncated or has an unknown magic byte,
	 * or the message is too long
	 */
	public static Envelope open(byte[] header, byte[] message, int maxBytes) {
		checkMaxBytes(maxBytes);
		if (message.length > maxBytes) {
			throw new InvalidDataException(
					"Message of " + message.length + " bytes exceeds the limit of " + maxBytes + " bytes");
		}
		if (header != null) {
			SchemaId id = readId(header, "Schema id header");
			return new Envelope(id, header, idLength(id), message, 0, message.length);
		}
		SchemaId id = readId(message, "Framed message");
		int start = idLength(id);
		return new Envelope(id, null, 0, message, start, message.length - start);
	}

	/**
	 * Return the value of a record's last schema id header, as {@link #open} takes it.
	 * @param headers the record's headers, or {@code null}
	 * @param isKey whether the key's ({@value #KEY_SCHEMA_ID_HEADER}) rather than the
	 * value's ({@value #VALUE_SCHEMA_ID_HEADER})
	 * @return the value, or {@code null} when there is no such header or it has no value
	 */
	public static byte[] schemaIdHeader(Headers headers, boolean isKey) {
		Header header = (headers != null) ? headers.lastHeader(isKey ? KEY_SCHEMA_ID_HEADER : VALUE_SCHEMA_ID_HEADER)
				: null;
		return (header != null) ? header.value() : null;
	}

	private static SchemaId readId(byte[] bytes, String what) {
		if (bytes.length == 0 || (bytes[0] != MAGIC_BYTE && bytes[0] != MAGIC_BYTE_GUID)) {
			throw new InvalidDataException((bytes.length == 0) ? what + " is empty"
					: "Unknown magic byte " + (bytes[0] & 0xFF) + " in " + what.toLowerCase(Locale.ROOT)
							+ "; expected " + MAGIC_BYTE + " (schema id) or " + MAGIC_BYTE_GUID + " (GUID)");
		}
		int needed = (bytes[0] == MAGIC_BYTE) ? HEADER_BYTES : 1 + GUID_BYTES;
		if (bytes.length < needed) {
			throw new InvalidDataException(what + " of " + bytes.length + " bytes is shorter than the " + needed
					+ "-byte " + ((bytes[0] == MAGIC_BYTE) ? "schema id" : "schema GUID"));
		}
		return (bytes[0] == MAGIC_BYTE) ? SchemaId.of(bigEndian(bytes, 1, 4))
				: SchemaId.of(new UUID(bigEndian(bytes, 1, 8), bigEndian(bytes, 9, 8)));
	}

	private static long bigEndian(byte[] bytes, int offset, int length) {
		long value = 0;
		for (int i = offset; i < offset + length; i++) {
			value = (value << 8) | (bytes[i] & 0xFFL);
		}
		return value;
	}

	private static int idLength(SchemaId id) {
		return id.isGuid() ? 1 + GUID_BYTES : HEADER_BYTES;
	}

	/**
	 * Frame a datum.
	 * @param schemaId the writer schema's id, 0 to 2^32-1
	 * @param payload the raw Avro datum
	 * @param maxBytes the largest framed message allowed, envelope included
	 * @return a new array holding the framed message
	 * @throws InvalidDataException when the framed message would exceed {@code maxBytes}
	 */
	public static byte[] frame(long schemaId, byte[] payload, int maxBytes) {
		checkSchemaId(schemaId);
		checkMaxBytes(maxBytes);
		if (payload.length > maxBytes - HEADER_BYTES) {
			throw new InvalidDataException("Framed message of " + ((long) payload.length + HEADER_BYTES)
					+ " bytes exceeds the limit of " + maxBytes + " bytes");
		}
		byte[] message = new byte[HEADER_BYTES + payload.length];
		writeHeader(schemaId, message);
		System.arraycopy(payload, 0, message, HEADER_BYTES, payload.length);
		return message;
	}

	/**
	 * Read a framed message's envelope without copying its datum.
	 * @param message the framed message
	 * @param maxBytes the largest framed message accepted, envelope included
	 * @return the schema id and the datum's position
	 * @throws InvalidDataException when the message is too short, too long or has a bad
	 * magic byte
	 */
	public static Frame unframe(byte[] message, int maxBytes) {
		checkMaxBytes(maxBytes);
		if (message.length > maxBytes) {
			throw new InvalidDataException(
					"Framed message of " + message.length + " bytes exceeds the limit of " + maxBytes + " bytes");
		}
		if (message.length < HEADER_BYTES) {
			throw new InvalidDataException("Framed message of " + message.length + " bytes is shorter than the "
					+ HEADER_BYTES + "-byte envelope");
		}
		if (message[0] != MAGIC_BYTE) {
			throw new InvalidDataException("Unknown magic byte " + (message[0] & 0xFF) + "; expected " + MAGIC_BYTE);
		}
		long schemaId = ((message[1] & 0xFFL) << 24) | ((message[2] & 0xFFL) << 16) | ((message[3] & 0xFFL) << 8)
				| (message[4] & 0xFFL);
		return new Frame(schemaId, message, HEADER_BYTES, message.length - HEADER_BYTES);
	}

	/**
	 * Write the five-byte envelope at the start of {@code target}.
	 * @param schemaId the writer schema's id
	 * @param target an array of at least {@link #HEADER_BYTES} bytes
	 */
	public static void writeHeader(long schemaId, byte[] target) {
		checkSchemaId(schemaId);
		target[0] = MAGIC_BYTE;
		target[1] = (byte) (schemaId >>> 24);
		target[2] = (byte) (schemaId >>> 16);
		target[3] = (byte) (schemaId >>> 8);
		target[4] = (byte) schemaId;
	}

	/**
	 * Check a message size limit against the allowed range.
	 * @param maxBytes the limit
	 * @return the limit
	 * @throws IllegalArgumentException when it is outside 5 bytes .. 1 GiB
	 */
	public static int checkMaxBytes(int maxBytes) {
		if (maxBytes < HEADER_BYTES || maxBytes > MAX_MAX_BYTES) {
			throw new IllegalArgumentException(
					"Message limit must be between " + HEADER_BYTES + " and " + MAX_MAX_BYTES + " bytes, not " + maxBytes);
		}
		return maxBytes;
	}

	/**
	 * Check that a schema id is an unsigned 32-bit value.
	 * @param schemaId the id
	 * @return the id
	 * @throws IllegalArgumentException when it is negative or above 2^32-1
	 */
	public static long checkSchemaId(long schemaId) {
		if (schemaId < 0 || schemaId > MAX_SCHEMA_ID) {
			throw new IllegalArgumentException("Schema id must be an unsigned 32-bit value, not " + schemaId);
		}
		return schemaId;
	}

}
