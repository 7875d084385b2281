package dev.lockstep.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import dev.lockstep.autoconfigure.protobuf.test.Order;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.protobuf.ProtobufDeserializer;
import dev.lockstep.registry.protobuf.ProtobufSchema;
import dev.lockstep.registry.protobuf.ProtobufSerializer;
import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.test.registry.TestSchemaRegistry;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.WorkerStatus;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker declared in properties with {@code registry-protobuf} codecs on a real broker
 * and a registry over HTTP: seed normalization with keys, headers and a tombstone, a
 * message of a newer schema version read into the same generated class (its new field
 * carried through as an unknown field), and the invalid inputs (a malformed message, an
 * unknown id, indexes that name another message) quarantined in the same transactions.
 */
@ExtendWith(SharedKafkaBroker.class)
class LockstepProtobufIntegrationTests {

	private static KafkaBroker broker;

	private static TestSchemaRegistry registry;

	private final RegistryWorkerFixture topics = new RegistryWorkerFixture(broker);

	@BeforeAll
	static void start(KafkaBroker shared) {
		broker = shared;
		registry = TestSchemaRegistry.start();
	}

	@AfterAll
	static void stop() {
		registry.close();
	}

	@Test
	void normalizesProtobufMessagesAndQuarantinesInvalidOnes() throws Exception {
		String v1 = ProtobufSchema.of(Order.getDescriptor()).text();
		// Version 2 adds a channel: a v2 message reads into the v1 class, which keeps it.
		String v2 = v1.replace("  int64 amount_cents = 3;\n", "  int64 amount_cents = 3;\n  string channel = 9;\n");
		assertThat(v2).isNotEqualTo(v1);
		long v1Id = registry.register(this.topics.input + "-value", "PROTOBUF", v1);
		long v2Id = registry.register(this.topics.input + "-value", "PROTOBUF", v2);
		registry.register(this.topics.output + "-value", "PROTOBUF", v1);
		// As Confluent's clients register it: base64 of the serialized FileDescriptorProto.
		long serializedId = registry.register(this.topics.input + "-value", "PROTOBUF",
				Base64.getEncoder().encodeToString(Order.getDescriptor().getFile().toProto().toByteArray()));
		RegistryClient client = RegistryClient.builder(registry.url()).build();
		ProtobufSerializer<Order> writer = ProtobufSerializer.of(client, this.topics.input + "-value", Order.getDescriptor());
		Descriptor v2Order = ProtobufSchema.parse(v2).file().findMessageTypeByName("Order");
		DynamicMessage newer = DynamicMessage.newBuilder(v2Order)
			.setField(v2Order.findFieldByName("id"), "o-2")
			.setField(v2Order.findFieldByName("status"), "refunded")
			.setField(v2Order.findFieldByName("channel"), "app")
			.build();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(this.topics.properties(registry.url(), "registry-protobuf", Order.class))
			.run(); KafkaProducer<String, byte[]> producer = this.topics.producer()) {
			this.topics.send(producer, "order-1", writer.serialize(order("o-1", "paid", 1250)));
			this.topics.send(producer, "order-2", framed(v2Id, "0202", newer.toByteArray()));
			this.topics.send(producer, "order-3", null);
			this.topics.send(producer, "bad-bytes", framed(v1Id, "0202", HexFormat.of().parseHex("0aff")));
			this.topics.send(producer, "bad-id", framed(987_654, "0202", order("o-5", "paid", 1).toByteArray()));
			this.topics.send(producer, "bad-type", framed(v1Id, "00", order("o-6", "paid", 1).toByteArray()));
			this.topics.send(producer, "order-7", writer.serialize(order("o-7", "shipped", 10)));
			this.topics.send(producer, "order-8", framed(serializedId, "0202", order("o-8", "paid", 20).toByteArray()));
			List<ConsumerRecord<String, byte[]>> outputs = this.topics.readCommitted(this.topics.output, 5);
			List<ConsumerRecord<String, byte[]>> quarantined = this.topics.readCommitted(this.topics.quarantine, 3);
			ProtobufDeserializer<Order> reader = ProtobufDeserializer.specific(client, Order.getDefaultInstance(),
					WireFormat.DEFAULT_MAX_BYTES, 8);
			assertThat(outputs).extracting(ConsumerRecord::key).containsExactly("order-1", "order-2", "order-3",
					"order-7", "order-8");
			assertThat(reader.deserialize(outputs.get(0).value())).isEqualTo(order("o-1", "PAID", 1250));
			Order second = reader.deserialize(outputs.get(1).value());
			assertThat(second.getStatus()).isEqualTo("REFUNDED");
			assertThat(second.getUnknownFields().getField(9).getLengthDelimitedList().get(0).toStringUtf8())
				.isEqualTo("app");
			assertThat(outputs.get(2).value()).isNull();
			assertThat(reader.deserialize(outputs.get(3).value())).isEqualTo(order("o-7", "SHIPPED", 10));
			assertThat(reader.deserialize(outputs.get(4).value())).isEqualTo(order("o-8", "PAID", 20));
			assertThat(WireFormat.unframe(outputs.get(0).value(), 1000).schemaId())
				.isEqualTo(client.lookup(this.topics.output + "-value", ProtobufSchema.of(Order.getDescriptor()).registrySchema()));
			assertThat(new String(outputs.get(0).headers().lastHeader("source").value(), StandardCharsets.UTF_8))
				.isEqualTo("test");
			assertThat(quarantined).extracting(ConsumerRecord::key).containsExactly("bad-bytes", "bad-id",
					"bad-type");
			assertThat(RegistryWorkerFixture.errorOf(quarantined.get(0))).contains("Malformed lockstep.autoconfigure.Order");
			assertThat(RegistryWorkerFixture.errorOf(quarantined.get(1))).contains("Unknown schema id 987654");
			assertThat(RegistryWorkerFixture.errorOf(quarantined.get(2))).contains("wrote a lockstep.autoconfigure.Header");
			LockstepWorkers workers = context.getBean(LockstepWorkers.class);
			assertThat(workers.worker("normalizer").state().status()).isEqualTo(WorkerStatus.RUNNING);
		}
	}

	private static Order order(String id, String status, long amountCents) {
		return Order.newBuilder().setId(id).setStatus(status).setAmountCents(amountCents).build();
	}

	// Confluent's layout by hand: envelope, message indexes, then the message.
	private static byte[] framed(long id, String indexes, byte[] message) {
		byte[] header = HexFormat.of().parseHex(indexes);
		byte[] payload = new byte[header.length + message.length];
		System.arraycopy(header, 0, payload, 0, header.length);
		System.arraycopy(message, 0, payload, header.length, message.length);
		return WireFormat.frame(id, payload, 1000);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		@Bean
		ValueTransformer<Order, Order> normalizer() {
			// toBuilder keeps the fields of newer writers that this class does not know.
			return (order) -> order.toBuilder().setStatus(order.getStatus().toUpperCase(Locale.ROOT)).build();
		}

	}

}
