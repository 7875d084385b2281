package dev.lockstep.registry.kafka;

import java.util.Map;

import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.test.Order;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class RawAvroSerdeTests {

	private final Order order = new Order(2L, "Refunded", 7800L);

	@Test
	void roundTripsWhenConfiguredByClassName() {
		Map<String, Object> configs = Map.of("lockstep.avro.value.type", Order.class.getName());
		RawAvroSerializer<Order> serializer = new RawAvroSerializer<>();
		serializer.configure(configs, false);
		RawAvroDeserializer<Order> deserializer = new RawAvroDeserializer<>();
		deserializer.configure(configs, false);
		assertThat(deserializer.deserialize("orders", serializer.serialize("orders", this.order))).isEqualTo(this.order);
		assertThat(serializer.serialize("orders", null)).isNull();
		assertThat(deserializer.deserialize("orders", null)).isNull();
	}

	@Test
	void roundTripsWhenBuiltWithTheClass() {
		RawAvroSerializer<Order> serializer = new RawAvroSerializer<>(Order.class);
		RawAvroDeserializer<Order> deserializer = new RawAvroDeserializer<>(Order.class);
		assertThat(deserializer.deserialize("orders", serializer.serialize("orders", this.order))).isEqualTo(this.order);
	}

	@Test
	void recordClassIsRequiredAndMustBeAGeneratedRecord() {
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> new RawAvroDeserializer<>().configure(Map.of(), false))
			.withMessageContaining("lockstep.avro.value.type");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> new RawAvroDeserializer<>().configure(Map.of("lockstep.avro.key.type", "java.io.File"), true))
			.withMessageContaining("not a generated Avro record");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> new RawAvroDeserializer<>(Order.class)
				.configure(Map.of("lockstep.avro.value.type", "dev.lockstep.registry.test.OrderV2"), false))
			.withMessageContaining("built for");
	}

	@Test
	void messageLimitIsConfigurableAndStrict() {
		RawAvroDeserializer<Order> deserializer = new RawAvroDeserializer<>(Order.class);
		deserializer.configure(Map.of("lockstep.avro.max.message.bytes", 8), false);
		byte[] bytes = new RawAvroSerializer<>(Order.class).serialize("orders", this.order);
		assertThat(bytes.length).isGreaterThan(8);
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> deserializer.deserialize("orders", bytes))
			.withMessageContaining("limit of 8 bytes");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> deserializer.configure(Map.of("lockstep.avro.max.message.bytes", 4), false));
	}

}
