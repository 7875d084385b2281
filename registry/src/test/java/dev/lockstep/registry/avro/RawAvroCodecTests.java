package dev.lockstep.registry.avro;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.test.Order;
import dev.lockstep.registry.test.Shipment;
import dev.lockstep.registry.test.TestRecords;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class RawAvroCodecTests {

	private final RawAvroCodec<Order> orders = new RawAvroCodec<>(Order.class);

	@Test
	void roundTripsAGeneratedRecord() {
		Order order = new Order(1L, "PAID", 12500L);
		byte[] bytes = this.orders.encode(order);
		// id 1 (one varint byte), "PAID" (length byte + 4 bytes), 12500 (zigzag 25000: three varint bytes)
		assertThat(bytes).hasSize(1 + 1 + 4 + 3);
		assertThat(this.orders.decode(bytes)).isEqualTo(order);
	}

	@Test
	void roundTripsEveryAvroType() {
		RawAvroCodec<Shipment> codec = new RawAvroCodec<>(Shipment.class);
		Shipment shipment = TestRecords.shipment();
		assertThat(codec.decode(codec.encode(shipment))).isEqualTo(shipment);
	}

	@Test
	void tombstoneStaysNull() {
		assertThat(this.orders.encode(null)).isNull();
		assertThat(this.orders.decode(null)).isNull();
	}

	@Test
	void trailingBytesAreRefused() {
		byte[] bytes = this.orders.encode(new Order(1L, "PAID", 1L));
		byte[] extended = Arrays.copyOf(bytes, bytes.length + 1);
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> this.orders.decode(extended))
			.withMessageContaining("1 trailing bytes");
	}

	@Test
	void truncatedDataIsRefused() {
		byte[] bytes = this.orders.encode(new Order(1L, "PAID", 12500L));
		for (int length = 0; length < bytes.length; length++) {
			byte[] truncated = Arrays.copyOf(bytes, length);
			assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> this.orders.decode(truncated));
		}
	}

	@Test
	void stringLengthLargerThanTheMessageIsRefusedBeforeAllocating() {
		// id=1, then a string length of 2^30 (zigzag 2^31 as a varint) with 3 bytes behind it.
		byte[] hostile = { 2, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08, 'a', 'b', 'c' };
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> this.orders.decode(hostile))
			.withMessageContaining("Length prefix 1073741824 of string exceeds the 3 bytes left");
	}

	@Test
	void arrayCountLargerThanTheMessageIsRefusedBeforeAllocating() {
		RawAvroCodec<Shipment> codec = new RawAvroCodec<>(Shipment.class);
		byte[] valid = codec.encode(TestRecords.shipment());
		// id, carrier, label (1 byte), checksum (4), then the items array count: claim 2^30 items.
		int itemsAt = 1 + 1 + 2 + 4;
		byte[] hostile = new byte[itemsAt + 5];
		System.arraycopy(valid, 0, hostile, 0, itemsAt);
		System.arraycopy(new byte[] { (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08 }, 0, hostile, itemsAt,
				5);
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> codec.decode(hostile))
			.withMessageContaining("Item count 1073741824");
	}

	@Test
	void negativeLengthIsRefused() {
		byte[] hostile = { 2, 1, 'a' };
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> this.orders.decode(hostile))
			.withMessageContaining("Negative string length");
	}

	@Test
	void overlongVarintIsRefused() {
		byte[] hostile = { (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
				(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x01, 0, 0 };
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> this.orders.decode(hostile))
			.withMessageContaining("long encoding");
	}

	@Test
	void outOfRangeEnumAndUnionIndexesAreRefused() {
		RawAvroCodec<Shipment> codec = new RawAvroCodec<>(Shipment.class);
		byte[] bytes = codec.encode(TestRecords.shipment());
		bytes[1] = 40; // carrier symbol 20 of 3
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> codec.decode(bytes));
	}

	@Test
	void invalidBooleanIsRefused() {
		RawAvroCodec<Shipment> codec = new RawAvroCodec<>(Shipment.class);
		Shipment shipment = TestRecords.shipment();
		shipment.setItems(List.of());
		shipment.setAttributes(Map.of());
		shipment.setNote(null);
		shipment.setParts(List.of());
		byte[] bytes = codec.encode(shipment);
		// label "x", checksum, empty items, empty map, null note, weight (8), fragile at index 19
		int fragileAt = 1 + 1 + 2 + 4 + 1 + 1 + 1 + 8;
		assertThat(bytes[fragileAt]).isEqualTo((byte) 1);
		bytes[fragileAt] = 7;
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> codec.decode(bytes))
			.withMessageContaining("Invalid boolean byte 7");
	}

	@Test
	void messagesOverTheLimitAreRefusedBothWays() {
		RawAvroCodec<Order> small = new RawAvroCodec<>(Order.class, 8);
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> small.decode(new byte[9]));
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> small.encode(new Order(1L, "a much longer status", 1L)))
			.withMessageContaining("exceeds the limit of 8 bytes");
	}

}
