package dev.lockstep.registry;

/**
 * The Confluent wire format: a zero magic byte, the writer schema's id as four big-endian
 * bytes, then the payload (one raw Avro datum, or a value's UTF-8 JSON). Framing only: nothing here fetches or checks schemas.
 */
public final class WireFormat {

	/** The magic byte that starts every framed message. */
	public static final byte MAGIC_BYTE = 0;

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
