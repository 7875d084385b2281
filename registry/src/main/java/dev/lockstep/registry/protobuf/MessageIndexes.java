package dev.lockstep.registry.protobuf;

import java.util.Arrays;

import dev.lockstep.registry.InvalidDataException;

/**
 * The message indexes of Confluent's Protobuf wire format: after the schema id, which
 * message of the schema's file a payload is, as a path of indexes (the top-level
 * message's index in the file, then the nested message's index in its parent, and so on),
 * written as a zig-zag varint count followed by zig-zag varint indexes. The path
 * {@code [0]} (the file's first message) is the single byte {@code 0}. Indexes count
 * declared messages only: a map's entry type is not one.
 */
public final class MessageIndexes {

	/** The longest path read: deeper nesting than any schema Lockstep accepts. */
	public static final int MAX_DEPTH = ProtoParser.MAX_DEPTH + 1;

	private static final byte[] FIRST = { 0 };

	// Odd unsigned varints read as negative zig-zag ones: the likely writer, named.
	private static final String DEPRECATED_FORMAT = " (Confluent's deprecated format writes message indexes as"
			+ " unsigned varints: confluent-kafka clients before 1.8.2, or use.deprecated.format=true; only the"
			+ " file's first message, [0], reads the same in both)";

	private MessageIndexes() {
	}

	/**
	 * A path read from a message.
	 *
	 * @param indexes the message's path in its file
	 * @param length the number of bytes it took
	 */
	public record Read(int[] indexes, int length) {

		@Override
		public boolean equals(Object other) {
			return other instanceof Read read && Arrays.equals(this.indexes, read.indexes) && this.length == read.length;
		}

		@Override
		public int hashCode() {
			return 31 * Arrays.hashCode(this.indexes) + this.length;
		}

		@Override
		public String toString() {
			return Arrays.toString(this.indexes);
		}

	}

	/**
	 * Encode a path.
	 * @param indexes the message's path, at least one index, none negative
	 * @return the bytes to write after the schema id
	 */
	public static byte[] encode(int[] indexes) {
		if (indexes.length == 0 || indexes.length > MAX_DEPTH) {
			throw new IllegalArgumentException("A message path has 1 to " + MAX_DEPTH + " indexes, not "
					+ indexes.length);
		}
		if (indexes.length == 1 && indexes[0] == 0) {
			return FIRST.clone();
		}
		byte[] buffer = new byte[5 * (indexes.length + 1)];
		int position = writeVarint(indexes.length, buffer, 0);
		for (int index : indexes) {
			if (index < 0) {
				throw new IllegalArgumentException("Negative message index in " + Arrays.toString(indexes));
			}
			position = writeVarint(index, buffer, position);
		}
		return Arrays.copyOf(buffer, position);
	}

	/**
	 * Read a path.
	 * @param message the framed message
	 * @param offset where the path starts (after the schema id)
	 * @param length the bytes left in the message
	 * @return the path and its length in bytes
	 * @throws InvalidDataException when the bytes are no valid path
	 */
	public static Read decode(byte[] message, int offset, int length) {
		int[] position = { offset };
		int end = offset + length;
		int count = readVarint(message, position, end);
		if (count == 0) {
			return new Read(new int[] { 0 }, position[0] - offset);
		}
		if (count < 0 || count > MAX_DEPTH) {
			throw new InvalidDataException("Message index count " + count + " is outside 0.." + MAX_DEPTH
					+ ((count < 0) ? DEPRECATED_FORMAT : ""));
		}
		int[] indexes = new int[count];
		for (int i = 0; i < count; i++) {
			indexes[i] = readVarint(message, position, end);
			if (indexes[i] < 0) {
				throw new InvalidDataException("Negative message index " + indexes[i] + DEPRECATED_FORMAT);
			}
		}
		return new Read(indexes, position[0] - offset);
	}

	private static int writeVarint(int value, byte[] buffer, int position) {
		int zigzag = (value << 1) ^ (value >> 31);
		while ((zigzag & ~0x7F) != 0) {
			buffer[position++] = (byte) ((zigzag & 0x7F) | 0x80);
			zigzag >>>= 7;
		}
		buffer[position++] = (byte) zigzag;
		return position;
	}

	private static int readVarint(byte[] message, int[] position, int end) {
		int value = 0;
		for (int shift = 0; shift < 35; shift += 7) {
			if (position[0] >= end) {
				throw new InvalidDataException("Message indexes end before the payload");
			}
			byte b = message[position[0]++];
			value |= (b & 0x7F) << shift;
			if ((b & 0x80) == 0) {
				if (shift == 28 && (b & 0xF0) != 0) {
					break;
				}
				return (value >>> 1) ^ -(value & 1);
			}
		}
		throw new InvalidDataException("Message index varint longer than 32 bits");
	}

}
