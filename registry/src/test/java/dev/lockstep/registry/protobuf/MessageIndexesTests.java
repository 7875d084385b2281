package dev.lockstep.registry.protobuf;

import java.util.HexFormat;

import dev.lockstep.registry.InvalidDataException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Message indexes against Confluent's documented encoding: a zig-zag varint count, then
 * zig-zag varint indexes, and the single byte {@code 0} for the first message.
 */
class MessageIndexesTests {

	@Test
	void encodesAsConfluentDocumentsIt() {
		assertThat(hex(MessageIndexes.encode(new int[] { 0 }))).isEqualTo("00");
		assertThat(hex(MessageIndexes.encode(new int[] { 1 }))).isEqualTo("0202");
		assertThat(hex(MessageIndexes.encode(new int[] { 1, 0 }))).isEqualTo("040200");
		assertThat(hex(MessageIndexes.encode(new int[] { 0, 0 }))).isEqualTo("040000");
		assertThat(hex(MessageIndexes.encode(new int[] { 2, 0, 1 }))).isEqualTo("06040002");
		assertThat(hex(MessageIndexes.encode(new int[] { 64 }))).isEqualTo("028001");
	}

	@Test
	void decodesWhatItEncodesAndTheLongFormOfTheFirstMessage() {
		for (int[] path : new int[][] { { 0 }, { 1 }, { 1, 0 }, { 2, 0, 1 }, { 300, 70000 } }) {
			byte[] bytes = MessageIndexes.encode(path);
			byte[] message = new byte[bytes.length + 3];
			System.arraycopy(bytes, 0, message, 1, bytes.length);
			MessageIndexes.Read read = MessageIndexes.decode(message, 1, message.length - 1);
			assertThat(read.indexes()).containsExactly(path);
			assertThat(read.length()).isEqualTo(bytes.length);
		}
		// A writer may spell [0] out in full: count 1, index 0.
		assertThat(MessageIndexes.decode(HexFormat.of().parseHex("0200"), 0, 2).indexes()).containsExactly(0);
	}

	@Test
	void refusesBadIndexes() {
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> MessageIndexes.decode(new byte[0], 0, 0)).withMessageContaining("end before");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> MessageIndexes.decode(HexFormat.of().parseHex("0402"), 0, 2))
			.withMessageContaining("end before");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> MessageIndexes.decode(HexFormat.of().parseHex("01"), 0, 1))
			.withMessageContaining("count -1");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> MessageIndexes.decode(HexFormat.of().parseHex("0201"), 0, 2))
			.withMessageContaining("Negative");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> MessageIndexes.decode(HexFormat.of().parseHex("8601"), 0, 2))
			.withMessageContaining("count 67");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> MessageIndexes.decode(HexFormat.of().parseHex("ffffffffff01"), 0, 6))
			.withMessageContaining("32 bits");
	}

	@Test
	void namesConfluentsDeprecatedUnsignedFormatWhereItShows() {
		// [1] as confluent-kafka 1.7 writes it: count 1, index 1, unsigned.
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> MessageIndexes.decode(HexFormat.of().parseHex("0101"), 0, 2))
			.withMessageContaining("count -1")
			.withMessageContaining("deprecated format writes message indexes as unsigned varints");
		// [1, 0]: count 2 reads as 1, then index 1 as -1.
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> MessageIndexes.decode(HexFormat.of().parseHex("020100"), 0, 3))
			.withMessageContaining("use.deprecated.format=true");
	}

	private static String hex(byte[] bytes) {
		return HexFormat.of().formatHex(bytes);
	}

}
