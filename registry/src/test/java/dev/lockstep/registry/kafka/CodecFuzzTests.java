package dev.lockstep.registry.kafka;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Message;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.avro.RawAvroCodec;
import dev.lockstep.registry.protobuf.ProtobufSchema;
import dev.lockstep.registry.protobuf.test.TestMessages;
import dev.lockstep.registry.test.Order;
import dev.lockstep.registry.test.Shipment;
import dev.lockstep.registry.test.TestRecords;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random and mutated messages through the decoders must give a value or a
 * {@link SerializationException}: never an OutOfMemoryError (this suite runs with a
 * 256 MiB heap), never another exception type. The seed is fixed, so a failure names an
 * input that reproduces.
 */
class CodecFuzzTests {

	private static final int ITERATIONS = 1_000_000;

	private static final int SCHEMA_ITERATIONS = 100_000;

	private static final String PROTO_ORDER_SCHEMA = ProtobufSchema
		.of(dev.lockstep.registry.protobuf.test.Order.getDescriptor()).text();

	private static TestSchemaRegistry registry;

	private static List<byte[]> framedSeeds;

	private static List<byte[]> rawOrderSeeds;

	private static List<byte[]> rawShipmentSeeds;

	private static List<byte[]> jsonSeeds;

	private static List<byte[]> protobufSeeds;

	@BeforeAll
	static void prepareSeeds() {
		registry = TestSchemaRegistry.start();
		long orderId = registry.register("orders-value", Order.getClassSchema());
		long shipmentId = registry.register("shipments-value", Shipment.getClassSchema());
		RawAvroCodec<Order> orders = new RawAvroCodec<>(Order.class);
		RawAvroCodec<Shipment> shipments = new RawAvroCodec<>(Shipment.class);
		rawOrderSeeds = List.of(orders.encode(new Order(1L, "PAID", 12500L)), orders.encode(new Order(-7L, "", 0L)),
				orders.encode(new Order(Long.MAX_VALUE, "refunded-with-a-longer-status", Long.MIN_VALUE)));
		rawShipmentSeeds = List.of(shipments.encode(TestRecords.shipment()));
		framedSeeds = List.of(WireFormat.frame(orderId, rawOrderSeeds.get(0), 1000),
				WireFormat.frame(orderId, rawOrderSeeds.get(2), 1000),
				WireFormat.frame(shipmentId, rawShipmentSeeds.get(0), 1000));
		long jsonId = registry.register("json-orders-value", "JSON", JsonSchemaSerdeSchemas.ORDER);
		jsonSeeds = List.of(json(jsonId, "{\"id\":\"o-1\",\"amount\":12.5}"),
				json(jsonId, "{\"amount\":-0.0001e3,\"id\":\"\\u00e9\\n\"}"), json(jsonId, "[{\"id\":[1,{}]}]"));
		long protobufId = registry.register("proto-orders-value", "PROTOBUF", PROTO_ORDER_SCHEMA);
		dev.lockstep.registry.protobuf.test.Order order = TestMessages.order();
		protobufSeeds = List.of(protobuf(protobufId, "0202", order.toByteArray()),
				protobuf(protobufId, "00", dev.lockstep.registry.protobuf.test.Envelope.newBuilder().setSource("s").build()
					.toByteArray()),
				protobuf(protobufId, "040202", order.getLines(0).toByteArray()));
	}

	private static byte[] protobuf(long id, String indexes, byte[] payload) {
		byte[] header = HexFormat.of().parseHex(indexes);
		byte[] framed = new byte[header.length + payload.length];
		System.arraycopy(header, 0, framed, 0, header.length);
		System.arraycopy(payload, 0, framed, header.length, payload.length);
		return WireFormat.frame(id, framed, 1000);
	}

	private static byte[] json(long id, String json) {
		return WireFormat.frame(id, json.getBytes(java.nio.charset.StandardCharsets.UTF_8), 1000);
	}

	@AfterAll
	static void stopRegistry() {
		registry.close();
	}

	@Test
	void registryDeserializerGivesOnlySerializationExceptions() {
		RegistryAvroDeserializer<Object> specific = new RegistryAvroDeserializer<>();
		specific.configure(Map.of("schema.registry.url", registry.url(), "specific.avro.reader", true,
				"lockstep.registry.retries", 0), false);
		RegistryAvroDeserializer<Object> generic = new RegistryAvroDeserializer<>();
		generic.configure(Map.of("schema.registry.url", registry.url(), "lockstep.registry.retries", 0), false);
		Random random = new Random(20261129L);
		Outcomes outcomes = fuzz(random, framedSeeds, true, (message) -> (random.nextBoolean() ? specific : generic)
			.deserialize("fuzz", message));
		System.out.println("FUZZ registry-deserializer " + outcomes);
		assertThat(outcomes.decoded + outcomes.refused).isEqualTo(ITERATIONS);
		assertThat(outcomes.refused).isPositive();
		assertThat(outcomes.decoded).isPositive();
	}

	@Test
	void jsonSchemaDeserializerGivesOnlySerializationExceptions() {
		RegistryJsonSchemaDeserializer<Object> typed = new RegistryJsonSchemaDeserializer<>();
		typed.configure(Map.of("schema.registry.url", registry.url(), "json.value.type",
				dev.lockstep.registry.json.JsonOrder.class.getName(), "lockstep.registry.retries", 0), false);
		RegistryJsonSchemaDeserializer<Object> trees = new RegistryJsonSchemaDeserializer<>();
		trees.configure(Map.of("schema.registry.url", registry.url(), "json.fail.invalid.schema", false,
				"lockstep.registry.retries", 0), false);
		Random random = new Random(20261202L);
		Outcomes outcomes = fuzz(random, jsonSeeds, true, (message) -> (random.nextBoolean() ? typed : trees)
			.deserialize("fuzz", message));
		System.out.println("FUZZ json-schema-deserializer " + outcomes);
		assertThat(outcomes.decoded + outcomes.refused).isEqualTo(ITERATIONS);
		assertThat(outcomes.refused).isPositive();
		assertThat(outcomes.decoded).isPositive();
	}

	@Test
	void protobufDeserializerGivesOnlySerializationExceptions() {
		RegistryProtobufDeserializer<Message> specific = new RegistryProtobufDeserializer<>();
		specific.configure(Map.of("schema.registry.url", registry.url(), "specific.protobuf.value.type",
				dev.lockstep.registry.protobuf.test.Order.class.getName(), "lockstep.registry.retries", 0), false);
		RegistryProtobufDeserializer<Message> dynamic = new RegistryProtobufDeserializer<>();
		dynamic.configure(Map.of("schema.registry.url", registry.url(), "lockstep.registry.retries", 0), false);
		Random random = new Random(20261203L);
		Outcomes outcomes = fuzz(random, protobufSeeds, true, (message) -> (random.nextBoolean() ? specific : dynamic)
			.deserialize("fuzz", message));
		System.out.println("FUZZ protobuf-deserializer " + outcomes);
		assertThat(outcomes.decoded + outcomes.refused).isEqualTo(ITERATIONS);
		assertThat(outcomes.refused).isPositive();
		assertThat(outcomes.decoded).isPositive();
	}

	@Test
	void protobufSchemaTextParsesOrIsRefused() {
		Random random = new Random(20261204L);
		String alphabet = "{}[]()<>;=,.\"'/*-_ \nmessage enum oneof map optional repeated 0123456789xX";
		long parsed = 0;
		long refused = 0;
		for (int i = 0; i < SCHEMA_ITERATIONS; i++) {
			StringBuilder text = new StringBuilder(PROTO_ORDER_SCHEMA);
			for (int m = 1 + random.nextInt(4); m > 0; m--) {
				int at = random.nextInt(text.length());
				switch (random.nextInt(3)) {
					case 0 -> text.deleteCharAt(at);
					case 1 -> text.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
					default -> text.insert(at, text.substring(at, Math.min(text.length(), at + random.nextInt(40))));
				}
			}
			try {
				ProtobufSchema.parse(text.toString());
				parsed++;
			}
			catch (IllegalArgumentException ex) {
				refused++;
			}
			catch (Throwable ex) {
				throw new AssertionError("Schema text gave " + ex + ":\n" + text, ex);
			}
		}
		System.out.println("FUZZ protobuf-schema " + SCHEMA_ITERATIONS + " texts: " + parsed + " parsed, " + refused
				+ " refused");
		assertThat(parsed).isPositive();
		assertThat(refused).isPositive();
	}

	@Test
	void rawProtobufAndJsonDecodersGiveOnlySerializationExceptions() {
		RawProtobufDeserializer<dev.lockstep.registry.protobuf.test.Order> protobuf = new RawProtobufDeserializer<>(
				dev.lockstep.registry.protobuf.test.Order.getDefaultInstance());
		RawJsonDeserializer<JsonNode> json = new RawJsonDeserializer<>(JsonNode.class, new ObjectMapper());
		Random random = new Random(20261205L);
		Outcomes protobufOutcomes = fuzz(random, List.of(TestMessages.order().toByteArray()), false,
				(message) -> protobuf.deserialize("fuzz", message));
		Outcomes jsonOutcomes = fuzz(random,
				jsonSeeds.stream().map((seed) -> Arrays.copyOfRange(seed, WireFormat.HEADER_BYTES, seed.length)).toList(),
				false, (message) -> json.deserialize("fuzz", message));
		System.out.println("FUZZ raw-protobuf " + protobufOutcomes + "; raw-json " + jsonOutcomes);
		assertThat(protobufOutcomes.refused).isPositive();
		assertThat(protobufOutcomes.decoded).isPositive();
		assertThat(jsonOutcomes.refused).isPositive();
		assertThat(jsonOutcomes.decoded).isPositive();
	}

	@Test
	void rawCodecGivesOnlySerializationExceptions() {
		RawAvroCodec<Order> orders = new RawAvroCodec<>(Order.class);
		RawAvroCodec<Shipment> shipments = new RawAvroCodec<>(Shipment.class);
		Random random = new Random(11292026L);
		Outcomes orderOutcomes = fuzz(random, rawOrderSeeds, false, orders::decode);
		Outcomes shipmentOutcomes = fuzz(random, rawShipmentSeeds, false, shipments::decode);
		System.out.println("FUZZ raw-codec Order " + orderOutcomes + "; Shipment " + shipmentOutcomes);
		assertThat(orderOutcomes.refused).isPositive();
		assertThat(shipmentOutcomes.refused).isPositive();
		assertThat(orderOutcomes.decoded).isPositive();
	}

	private static Outcomes fuzz(Random random, List<byte[]> seeds, boolean framed, Function<byte[], Object> decoder) {
		Outcomes outcomes = new Outcomes();
		for (int i = 0; i < ITERATIONS; i++) {
			byte[] input = (random.nextInt(4) == 0) ? randomBytes(random, framed)
					: mutate(random, seeds.get(random.nextInt(seeds.size())), framed);
			try {
				decoder.apply(input);
				outcomes.decoded++;
			}
			catch (SerializationException ex) {
				outcomes.refused++;
			}
			catch (Throwable ex) {
				throw new AssertionError("Input " + HexFormat.of().formatHex(input) + " gave " + ex, ex);
			}
		}
		return outcomes;
	}

	private static byte[] randomBytes(Random random, boolean framed) {
		byte[] bytes = new byte[random.nextInt(48)];
		random.nextBytes(bytes);
		if (framed && bytes.length >= 5 && random.nextBoolean()) {
			// Past the envelope, into the Avro decoder, with a known schema id.
			bytes[0] = 0;
			bytes[1] = 0;
			bytes[2] = 0;
			bytes[3] = 0;
			bytes[4] = (byte) (1 + random.nextInt(2));
		}
		return bytes;
	}

	private static byte[] mutate(Random random, byte[] seed, boolean framed) {
		byte[] bytes = seed.clone();
		// Leave the envelope alone most of the time: unknown ids cost a registry round trip.
		int from = (framed && random.nextInt(1000) != 0) ? WireFormat.HEADER_BYTES : 0;
		int mutations = 1 + random.nextInt(4);
		for (int m = 0; m < mutations; m++) {
			int span = Math.max(1, bytes.length - from);
			int at = from + random.nextInt(span);
			switch (random.nextInt(6)) {
				case 0 -> {
					if (at < bytes.length) {
						bytes[at] ^= (byte) (1 << random.nextInt(8));
					}
				}
				case 1 -> {
					if (at < bytes.length) {
						bytes[at] = (byte) random.nextInt(256);
					}
				}
				case 2 -> bytes = insert(bytes, Math.min(at, bytes.length),
						new byte[] { (byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F });
				case 3 -> bytes = Arrays.copyOf(bytes, Math.max(from, at));
				case 4 -> {
					byte[] extra = new byte[1 + random.nextInt(8)];
					random.nextBytes(extra);
					bytes = insert(bytes, bytes.length, extra);
				}
				default -> {
					if (at < bytes.length) {
						int length = Math.min(bytes.length - at, 1 + random.nextInt(6));
						bytes = insert(bytes, at, Arrays.copyOfRange(bytes, at, at + length));
					}
				}
			}
		}
		return bytes;
	}

	private static byte[] insert(byte[] bytes, int at, byte[] extra) {
		byte[] result = new byte[bytes.length + extra.length];
		System.arraycopy(bytes, 0, result, 0, at);
		System.arraycopy(extra, 0, result, at, extra.length);
		System.arraycopy(bytes, at, result, at + extra.length, bytes.length - at);
		return result;
	}

	private static final class Outcomes {

		private long decoded;

		private long refused;

		@Override
		public String toString() {
			return ITERATIONS + " inputs: " + this.decoded + " decoded, " + this.refused + " refused";
		}

	}

}
