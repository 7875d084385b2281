package dev.lockstep.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * The sample's orders as raw Avro, written and read with the sample's schema, so the
 * end-to-end suite needs none of the app's classes.
 */
final class Orders {

	static final Schema SCHEMA = new Schema.Parser().parse("""
			{"type": "record", "name": "Order", "namespace": "dev.lockstep.sample", "fields": [
			  {"name": "id", "type": "long"},
			  {"name": "status", "type": "string"},
			  {"name": "amount_cents", "type": "long"}]}""");

	private static final String[] CASINGS = { "paid", "PAID", "Paid", "refunded", "Refunded", "REFUNDED" };

	private Orders() {
	}

	/** Order i's status in a mix of casings. */
	static String status(long id) {
		return CASINGS[(int) (id % CASINGS.length)];
	}

	/** Whether input i is a tombstone: every 50th. */
	static boolean isTombstone(long id) {
		return id % 50 == 0;
	}

	static byte[] key(long id) {
		return ("order-" + id).getBytes(StandardCharsets.UTF_8);
	}

	static byte[] encode(long id) {
		GenericRecord order = new GenericData.Record(SCHEMA);
		order.put("id", id);
		order.put("status", status(id));
		order.put("amount_cents", id * 10);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
		try {
			new GenericDatumWriter<GenericRecord>(SCHEMA).write(order, encoder);
			encoder.flush();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toByteArray();
	}

	static GenericRecord decode(byte[] bytes) {
		try {
			return new GenericDatumReader<GenericRecord>(SCHEMA).read(null,
					DecoderFactory.get().binaryDecoder(bytes, null));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static String normalized(long id) {
		return status(id).toUpperCase(Locale.ROOT);
	}

}
