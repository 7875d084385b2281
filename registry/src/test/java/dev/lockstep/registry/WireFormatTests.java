package dev.lockstep.registry;

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

}
