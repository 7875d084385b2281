package dev.lockstep.registry.kafka;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;

import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.SchemaIdFraming;
import dev.lockstep.registry.WireFormat;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Where a registry Kafka serializer puts the schema id of a message its codec framed with
 * the prefix: left there (and a schema id header of the same side removed: one copied from
 * an input record would name another schema and win over the prefix in a reader that
 * reads both), or moved into the header by GUID, the payload left bare.
 */
final class SchemaIdHeaders {

	private SchemaIdHeaders() {
	}

	/**
	 * Place a framed message's schema id.
	 * @param framing where it goes
	 * @param client the registry client, which knows the id's GUID
	 * @param framed the message as the codec framed it (prefix, then for Protobuf the
	 * message indexes), or {@code null}
	 * @param indexesLength the length of the message indexes after the prefix, 0 for
	 * Avro and JSON
	 * @param headers the record's headers, or {@code null}
	 * @param isKey whether the message is a key
	 * @return the message to send
	 */
	static byte[] place(SchemaIdFraming framing, RegistryClient client, byte[] framed, int indexesLength,
			Headers headers, boolean isKey) {
		String name = isKey ? WireFormat.KEY_SCHEMA_ID_HEADER : WireFormat.VALUE_SCHEMA_ID_HEADER;
		if (headers == null) {
			if (framing == SchemaIdFraming.HEADER && framed != null) {
				throw new SerializationException("A schema id header needs the record's headers");
			}
			return framed;
		}
		Header present = headers.lastHeader(name);
		if (framing == SchemaIdFraming.PREFIX || framed == null) {
			if (present != null) {
				change(headers, name, null);
			}
			return framed;
		}
		long id = WireFormat.unframe(framed, WireFormat.MAX_MAX_BYTES).schemaId();
		UUID guid;
		try {
			guid = client.guid(id);
		}
		catch (RegistryException ex) {
			throw new SerializationException("Could not name schema id " + id + " by GUID for the "
					+ name + " header: " + ex.getMessage(), ex);
		}
		byte[] value = ByteBuffer.allocate(17 + indexesLength)
			.put(WireFormat.MAGIC_BYTE_GUID)
			.putLong(guid.getMostSignificantBits())
			.putLong(guid.getLeastSignificantBits())
			.put(framed, WireFormat.HEADER_BYTES, indexesLength)
			.array();
		// A record sent again already holds this very header, read-only.
		if (present == null || !Arrays.equals(present.value(), value)) {
			change(headers, name, value);
		}
		return Arrays.copyOfRange(framed, WireFormat.HEADER_BYTES + indexesLength, framed.length);
	}

	// Remove the side's header and add one of a value, if any; a record sent before has
	// read-only headers, which cannot change.
	private static void change(Headers headers, String name, byte[] value) {
		try {
			headers.remove(name);
			if (value != null) {
				headers.add(name, value);
			}
		}
		catch (IllegalStateException ex) {
			throw new SerializationException("The record's headers are read-only (it was sent before) and hold a "
					+ name + " header that does not name this message's schema", ex);
		}
	}

}
