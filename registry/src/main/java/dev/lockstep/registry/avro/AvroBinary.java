package dev.lockstep.registry.avro;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.WireFormat;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Encoding and strict decoding of single Avro datums, with per-thread buffers reused
 * across calls so that the record path allocates only the result.
 */
final class AvroBinary {

	private static final ThreadLocal<BoundedBinaryDecoder> decoders = ThreadLocal
		.withInitial(BoundedBinaryDecoder::new);

	private static final ThreadLocal<EncodeBuffer> encodeBuffers = ThreadLocal.withInitial(EncodeBuffer::new);

	/** A buffer grown past this is dropped after use rather than kept by the thread. */
	private static final int RETAINED_BUFFER_BYTES = 1024 * 1024;

	private AvroBinary() {
	}

	/**
	 * Decode exactly one datum filling {@code length} bytes of {@code buf}.
	 * @throws InvalidDataException for malformed, truncated or trailing data
	 */
	static <T> T decode(DatumReader<T> reader, byte[] buf, int offset, int length) {
		BoundedBinaryDecoder decoder = decoders.get().reset(buf, offset, length);
		try {
			T datum = reader.read(null, decoder);
			if (decoder.remaining() != 0) {
				throw new InvalidDataException(decoder.remaining() + " trailing bytes after the Avro datum");
			}
			return datum;
		}
		catch (InvalidDataException ex) {
			throw ex;
		}
		catch (IOException | RuntimeException ex) {
			throw new InvalidDataException("Malformed Avro datum: " + ex, ex);
		}
		catch (StackOverflowError ex) {
			// A recursive schema nested deeper than the stack allows: refuse it, the thread survives.
			throw new InvalidDataException("Malformed Avro datum: nesting too deep", ex);
		}
		finally {
			decoder.reset(null, 0, 0);
		}
	}

	/**
	 * Encode one datum, preceded by the wire-format envelope when {@code schemaId} is not
	 * negative.
	 * @throws InvalidDataException when the datum cannot be encoded with the writer's
	 * schema, or the result would exceed {@code maxBytes}: no retry can change that
	 */
	static <T> byte[] encode(DatumWriter<T> writer, T datum, long schemaId, int maxBytes) {
		EncodeBuffer buffer = encodeBuffers.get();
		try {
			buffer.reset();
			if (schemaId >= 0) {
				buffer.writeHeader(schemaId);
			}
			buffer.encoder = EncoderFactory.get().binaryEncoder(buffer, buffer.encoder);
			writer.write(datum, buffer.encoder);
			buffer.encoder.flush();
			if (buffer.count > maxBytes) {
				throw new InvalidDataException(
						"Encoded message of " + buffer.count + " bytes exceeds the limit of " + maxBytes + " bytes");
			}
			return Arrays.copyOf(buffer.bytes, buffer.count);
		}
		catch (IOException | RuntimeException ex) {
			if (ex instanceof SerializationException serialization) {
				throw serialization;
			}
			throw new InvalidDataException("Could not encode " + describe(datum) + ": " + ex.getMessage(), ex);
		}
		finally {
			if (buffer.bytes.length > RETAINED_BUFFER_BYTES) {
				encodeBuffers.remove();
			}
		}
	}

	private static String describe(Object datum) {
		return (datum != null) ? datum.getClass().getName() : "null";
	}

	/**
	 * An unsynchronized growable byte buffer, reused by one thread.
	 */
	private static final class EncodeBuffer extends OutputStream {

		private byte[] bytes = new byte[256];

		private int count;

		private BinaryEncoder encoder;

		void reset() {
			this.count = 0;
		}

		void writeHeader(long schemaId) {
			WireFormat.writeHeader(schemaId, this.bytes);
			this.count = WireFormat.HEADER_BYTES;
		}

		@Override
		public void write(int b) {
			ensure(1);
			this.bytes[this.count++] = (byte) b;
		}

		@Override
		public void write(byte[] source, int offset, int length) {
			ensure(length);
			System.arraycopy(source, offset, this.bytes, this.count, length);
			this.count += length;
		}

		private void ensure(int extra) {
			long needed = (long) this.count + extra;
			if (needed > WireFormat.MAX_MAX_BYTES) {
				throw new InvalidDataException("Encoded message exceeds " + WireFormat.MAX_MAX_BYTES + " bytes");
			}
			if (needed > this.bytes.length) {
				this.bytes = Arrays.copyOf(this.bytes, (int) Math.min(Math.max(needed, 2L * this.bytes.length),
						WireFormat.MAX_MAX_BYTES));
			}
		}

	}

}
