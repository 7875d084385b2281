package dev.lockstep.registry;

import java.util.UUID;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class WireFormatTests {

	@Test
	void frameWritesMagicByteBigEndianIdAndPayload() {
		byte[] framed = WireFormat.frame(0x01020304L, new byte[] { 9, 8 }, 100);
		assertThat(framed).containsExactly(0, 1, 2, 3, 4, 9, 8);
	}

	@Test
	void unframeReturnsIdAndPayloadPositionWithoutCopying() {
		byte[] framed = WireFormat.frame(0xFFFF_FFFFL, new byte[] { 7 }, 100);
		WireFormat.Frame frame = WireFormat.unframe(framed, 100);
		assertThat(frame.schemaId()).isEqualTo(0xFFFF_FFFFL);
		assertThat(frame.message()).isSameAs(framed);
		assertThat(frame.offset()).isEqualTo(5);
		assertThat(frame.length()).isEqualTo(1);
	}

	@Test
	void schemaIdsAreUnsigned32Bit() {
		assertThat(WireFormat.unframe(WireFormat.frame(0, new byte[0], 5), 5).schemaId()).isZero();
		assertThatIllegalArgumentException().isThrownBy(() -> WireFormat.frame(-1, new byte[0], 100));
		assertThatIllegalArgumentException().isThrownBy(() -> WireFormat.frame(1L << 32, new byte[0], 100));
	}

	@Test
	void badMagicByteIsRefused() {
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> WireFormat.unframe(new byte[] { 1, 0, 0, 0, 1, 2 }, 100))
			.withMessageContaining("magic byte 1");
	}

	@Test
	void messageShorterThanTheEnvelopeIsRefused() {
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> WireFormat.unframe(new byte[] { 0, 0, 0, 1 }, 100))
			.withMessageContaining("shorter than the 5-byte envelope");
	}

	@Test
	void oversizedFramesAreRefusedBothWays() {
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> WireFormat.unframe(new byte[11], 10))
			.withMessageContaining("exceeds the limit of 10 bytes");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> WireFormat.frame(1, new byte[6], 10));
		assertThat(WireFormat.frame(1, new byte[5], 10)).hasSize(10);
	}

	@Test
	void limitMustBeBetweenTheEnvelopeAndOneGibibyte() {
		assertThatIllegalArgumentException().isThrownBy(() -> WireFormat.unframe(new byte[5], 4));
		assertThatIllegalArgumentException().isThrownBy(() -> WireFormat.unframe(new byte[5], (1 << 30) + 1));
		assertThat(WireFormat.checkMaxBytes(1 << 30)).isEqualTo(1 << 30);
		assertThat(WireFormat.DEFAULT_MAX_BYTES).isEqualTo(64 * 1024 * 1024);
	}

	@Test
	void openReadsAnIdOrAGuidFromThePrefix() {
		WireFormat.Envelope byId = WireFormat.open(null, new byte[] { 0, 0, 0, 1, 2, 9 }, 100);
		assertThat(byId.schemaId()).isEqualTo(SchemaId.of(258));
		assertThat(byId.header()).isNull();
		assertThat(byId.offset()).isEqualTo(5);
		assertThat(byId.length()).isEqualTo(1);
		byte[] byGuid = new byte[] { 1, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, (byte) 0x88, (byte) 0x99,
				(byte) 0xaa, (byte) 0xbb, (byte) 0xcc, (byte) 0xdd, (byte) 0xee, (byte) 0xff, 7, 8 };
		WireFormat.Envelope envelope = WireFormat.open(null, byGuid, 100);
		assertThat(envelope.schemaId())
			.isEqualTo(SchemaId.of(UUID.fromString("00112233-4455-6677-8899-aabbccddeeff")));
		assertThat(envelope.offset()).isEqualTo(17);
		assertThat(envelope.length()).isEqualTo(2);
	}

	@Test
	void aSchemaIdHeaderWinsAndTheMessageIsTheBareDatum() {
		byte[] header = { 1, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, (byte) 0x88, (byte) 0x99, (byte) 0xaa,
				(byte) 0xbb, (byte) 0xcc, (byte) 0xdd, (byte) 0xee, (byte) 0xff, 2, 2 };
		// The message would be refused as a frame (magic byte 9): the header is what names the schema.
		byte[] message = { 9, 9, 9 };
		WireFormat.Envelope envelope = WireFormat.open(header, message, 100);
		assertThat(envelope.schemaId().guid()).hasToString("00112233-4455-6677-8899-aabbccddeeff");
		assertThat(envelope.header()).isSameAs(header);
		assertThat(envelope.headerRest()).isEqualTo(17);
		assertThat(envelope.offset()).isZero();
		assertThat(envelope.length()).isEqualTo(3);
		WireFormat.Envelope byId = WireFormat.open(new byte[] { 0, 0, 0, 0, 42 }, message, 100);
		assertThat(byId.schemaId()).isEqualTo(SchemaId.of(42));
		assertThat(byId.headerRest()).isEqualTo(5);
	}

	@Test
	void aMalformedSchemaIdIsInvalidDataWhereverItIs() {
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> WireFormat.open(new byte[] { 2, 0, 0, 0, 1 }, new byte[0], 100))
			.withMessageContaining("Unknown magic byte 2 in schema id header; expected 0 (schema id) or 1 (GUID)");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> WireFormat.open(new byte[] { 1, 0, 0, 0, 1 }, new byte[0], 100))
			.withMessageContaining("Schema id header of 5 bytes is shorter than the 17-byte schema GUID");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> WireFormat.open(new byte[0], new byte[] { 0, 0, 0, 0, 1 }, 100))
			.withMessageContaining("Schema id header is empty");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> WireFormat.open(null, new byte[] { 1, 0, 0 }, 100))
			.withMessageContaining("Framed message of 3 bytes is shorter than the 17-byte schema GUID");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> WireFormat.open(null, new byte[] { 0, 0, 0 }, 100))
			.withMessageContaining("shorter than the 5-byte schema id");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> WireFormat.open(null, new byte[11], 10))
			.withMessageContaining("exceeds the limit of 10 bytes");
	}

	@Test
	void theSchemaIdHeaderIsTheLastOfItsSideWithAValue() {
		RecordHeaders headers = new RecordHeaders();
		assertThat(WireFormat.schemaIdHeader(headers, false)).isNull();
		assertThat(WireFormat.schemaIdHeader(null, false)).isNull();
		headers.add("__value_schema_id", new byte[] { 0, 0, 0, 0, 1 });
		headers.add("__value_schema_id", new byte[] { 0, 0, 0, 0, 2 });
		headers.add("__key_schema_id", new byte[] { 0, 0, 0, 0, 3 });
		assertThat(WireFormat.schemaIdHeader(headers, false)).containsExactly(0, 0, 0, 0, 2);
		assertThat(WireFormat.schemaIdHeader(headers, true)).containsExactly(0, 0, 0, 0, 3);
		headers.add("__value_schema_id", null);
		assertThat(WireFormat.schemaIdHeader(headers, false)).isNull();
	}

}
