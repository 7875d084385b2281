package dev.lockstep.registry.avro;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import dev.lockstep.registry.InvalidDataException;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;

/**
 * Avro's binary encoding read from one in-memory message, refusing any length or count
 * that the message cannot hold before anything is allocated for it.
 * <p>
 * A string, bytes or fixed value longer than the bytes left is refused. Array and map
 * item counts draw on a budget of one item per byte of the message, across the whole
 * datum: every item of a well-formed message takes at least one byte, so a count prefix
 * cannot make a reader allocate more slots than the message has bytes. (The one cost: an
 * array of more {@code null}s than the message has bytes is refused.)
 */
final class BoundedBinaryDecoder extends Decoder {

	private byte[] buf;

	private int pos;

	private int limit;

	private long itemBudget;

	BoundedBinaryDecoder reset(byte[] buf, int offset, int length) {
		this.buf = buf;
		this.pos = offset;
		this.limit = offset + length;
		this.itemBudget = length;
		return this;
	}

	int remaining() {
		return this.limit - this.pos;
	}

	@Override
	public void readNull() {
	}

	@Override
	public boolean readBoolean() {
		int value = nextByte();
		if (value > 1) {
			throw new InvalidDataException("Invalid boolean byte " + value);
		}
		return value == 1;
	}

	@Override
	public int readInt() {
		int raw = 0;
		for (int shift = 0; shift < 35; shift += 7) {
			int b = nextByte();
			raw |= (b & 0x7F) << shift;
			if ((b & 0x80) == 0) {
				if (shift == 28 && b > 0x0F) {
					throw new InvalidDataException("Invalid int encoding: value exceeds 32 bits");
				}
				return (raw >>> 1) ^ -(raw & 1);
			}
		}
		throw new InvalidDataException("Invalid int encoding: more than 5 bytes");
	}

	@Override
	public long readLong() {
		long raw = 0;
		for (int shift = 0; shift < 70; shift += 7) {
			long b = nextByte();
			raw |= (b & 0x7F) << shift;
			if ((b & 0x80) == 0) {
				if (shift == 63 && b > 0x01) {
					throw new InvalidDataException("Invalid long encoding: value exceeds 64 bits");
				}
				return (raw >>> 1) ^ -(raw & 1);
			}
		}
		throw new InvalidDataException("Invalid long encoding: more than 10 bytes");
	}

	@Override
	public float readFloat() {
		require(4, "float");
		int bits = (this.buf[this.pos] & 0xFF) | ((this.buf[this.pos + 1] & 0xFF) << 8)
				| ((this.buf[this.pos + 2] & 0xFF) << 16) | ((this.buf[this.pos + 3] & 0xFF) << 24);
		this.pos += 4;
		return Float.intBitsToFloat(bits);
	}

	@Override
	public double readDouble() {
		require(8, "double");
		long bits = 0;
		for (int i = 7; i >= 0; i--) {
			bits = (bits << 8) | (this.buf[this.pos + i] & 0xFF);
		}
		this.pos += 8;
		return Double.longBitsToDouble(bits);
	}

	@Override
	public Utf8 readString(Utf8 old) {
		int length = readLength("string");
		Utf8 result = (old != null) ? old : new Utf8();
		result.setByteLength(length);
		System.arraycopy(this.buf, this.pos, result.getBytes(), 0, length);
		this.pos += length;
		return result;
	}

	@Override
	public String readString() {
		int length = readLength("string");
		String result = new String(this.buf, this.pos, length, StandardCharsets.UTF_8);
		this.pos += length;
		return result;
	}

	@Override
	public void skipString() {
		skip(readLength("string"));
	}

	@Override
	public ByteBuffer readBytes(ByteBuffer old) {
		int length = readLength("bytes");
		ByteBuffer result;
		if (old != null && old.capacity() >= length) {
			result = old;
			result.clear();
		}
		else {
			result = ByteBuffer.allocate(length);
		}
		result.put(this.buf, this.pos, length);
		result.flip();
		this.pos += length;
		return result;
	}

	@Override
	public void skipBytes() {
		skip(readLength("bytes"));
	}

	@Override
	public void readFixed(byte[] bytes, int start, int length) {
		require(length, "fixed");
		System.arraycopy(this.buf, this.pos, bytes, start, length);
		this.pos += length;
	}

	@Override
	public void skipFixed(int length) {
		skip(length);
	}

	@Override
	public int readEnum() {
		return readInt();
	}

	@Override
	public long readArrayStart() {
		return readBlockCount();
	}

	@Override
	public long arrayNext() {
		return readBlockCount();
	}

	@Override
	public long skipArray() {
		return skipBlocks();
	}

	@Override
	public long readMapStart() {
		return readBlockCount();
	}

	@Override
	public long mapNext() {
		return readBlockCount();
	}

	@Override
	public long skipMap() {
		return skipBlocks();
	}

	@Override
	public int readIndex() {
		return readInt();
	}

	private long readBlockCount() {
		long count = readLong();
		if (count < 0) {
			// A negative count is followed by the block's size in bytes, which readers may ignore.
			count = -count;
			readLong();
		}
		return spendItems(count);
	}

	private long skipBlocks() {
		while (true) {
			long count = readLong();
			if (count >= 0) {
				return spendItems(count);
			}
			long size = readLong();
			if (size < 0 || size > remaining()) {
				throw new InvalidDataException("Block size " + size + " exceeds the " + remaining() + " bytes left");
			}
			skip((int) size);
		}
	}

	private long spendItems(long count) {
		if (count < 0 || count > this.itemBudget) {
			throw new InvalidDataException("Item count " + count + " exceeds what a " + (this.limit - this.pos)
					+ "-byte remainder can hold");
		}
		this.itemBudget -= count;
		return count;
	}

	private int readLength(String what) {
		long length = readLong();
		if (length < 0) {
			throw new InvalidDataException("Negative " + what + " length " + length);
		}
		if (length > remaining()) {
			throw new InvalidDataException(
					"Length prefix " + length + " of " + what + " exceeds the " + remaining() + " bytes left");
		}
		return (int) length;
	}

	private void skip(int length) {
		require(length, "skipped value");
		this.pos += length;
	}

	private void require(int length, String what) {
		if (length < 0 || length > remaining()) {
			throw new InvalidDataException(
					"Truncated data: " + what + " needs " + length + " bytes, " + remaining() + " left");
		}
	}

	private int nextByte() {
		if (this.pos >= this.limit) {
			throw new InvalidDataException("Truncated data: the datum ends early");
		}
		return this.buf[this.pos++] & 0xFF;
	}

}
