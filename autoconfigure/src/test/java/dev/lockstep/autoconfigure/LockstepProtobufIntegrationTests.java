package dev.lockstep.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import dev.lockstep.autoconfigure.protobuf.test.Order;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.protobuf.ProtobufDeserializer;
import dev.lockstep.registry.protobuf.ProtobufSchema;
import dev.lockstep.registry.protobuf.ProtobufSerializer;
import dev.lockstep.test.kafka.InJvmKafkaBroker;
import dev.lockstep.test.registry.TestSchemaRegistry;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.WorkerStatus;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker declared in properties with {@code registry-protobuf} codecs on a real broker
 * and a registry over HTTP: seed normalization with keys, headers and a tombstone, a
 * message of a newer schema version read into the same generated class (its new field
 * carried through as an unknown field), and the invalid inputs (a malformed message, an
 * unknown id, indexes that name another message) quarantined in the same transactions.
 */
class LockstepProtobufIntegrationTests {

	private static InJvmKafkaBroker broker;

	private static TestSchemaRegistry registry;

	private final String input = "proto-in-" + UUID.randomUUID();

	private final String output = "proto-out-" + UUID.randomUUID();

	private final String quarantine = "proto-quarantine-" + UUID.randomUUID();

	@BeforeAll
	static void start() {
		broker = InJvmKafkaBroker.start();
		registry = TestSchemaRegistry.start();
	}

	@AfterAll
	static void stop() {
		registry.close();
		broker.close();
	}

	@Test
	void normalizesProtobufMessagesAndQuarantinesInvalidOnes() throws Exception {
		String v1 = ProtobufSchema.of(Order.getDescriptor()).text();
		// Version 2 adds a channel: a v2 message reads into the v1 class, which keeps it.
		String v2 = v1.replace("  int64 amount_cents = 3;\n", "  int64 amount_cents = 3;\n  string channel = 9;\n");
		assertThat(v2).isNotEqualTo(v1);
		long v1Id = registry.register(this.input + "-value", "PROTOBUF", v1);
		long v2Id = registry.register(this.input + "-value", "PROTOBUF", v2);
		registry.register(this.output + "-value", "PROTOBUF", v1);
		RegistryClient client = RegistryClient.builder(registry.url()).build();
		ProtobufSerializer<Order> writer = ProtobufSerializer.of(client, this.input + "-value", Order.getDescriptor());
		Descriptor v2Order = ProtobufSchema.parse(v2).file().findMessageTypeByName("Order");
		DynamicMessage newer = DynamicMessage.newBuilder(v2Order)
			.setField(v2Order.findFieldByName("id"), "o-2")
			.setField(v2Order.findFieldByName("status"), "refunded")
			.setField(v2Order.findFieldByName("channel"), "app")
			.build();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(properties())
			.run(); KafkaProducer<String, byte[]> producer = producer()) {
			send(producer, "order-1", writer.serialize(order("o-1", "paid", 1250)));
			send(producer, "order-2", framed(v2Id, "0202", newer.toByteArray()));
			send(producer, "order-3", null);
			send(producer, "bad-bytes", framed(v1Id, "0202", HexFormat.of().parseHex("0aff")));
			send(producer, "bad-id", framed(987_654, "0202", order("o-5", "paid", 1).toByteArray()));
			send(producer, "bad-type", framed(v1Id, "00", order("o-6", "paid", 1).toByteArray()));
			send(producer, "order-7", writer.serialize(order("o-7", "shipped", 10)));
			List<ConsumerRecord<String, byte[]>> outputs = readCommitted(this.output, 4);
			List<ConsumerRecord<String, byte[]>> quarantined = readCommitted(this.quarantine, 3);
			ProtobufDeserializer<Order> reader = ProtobufDeserializer.specific(client, Order.getDefaultInstance(),
					WireFormat.DEFAULT_MAX_BYTES, 8);
			assertThat(outputs).extracting(ConsumerRecord::key).containsExactly("order-1", "order-2", "order-3",
					"order-7");
			assertThat(reader.deserialize(outputs.get(0).value())).isEqualTo(order("o-1", "PAID", 1250));
			Order second = reader.deserialize(outputs.get(1).value());
			assertThat(second.getStatus()).isEqualTo("REFUNDED");
			assertThat(second.getUnknownFields().getField(9).getLengthDelimitedList().get(0).toStringUtf8())
				.isEqualTo("app");
			assertThat(outputs.get(2).value()).isNull();
			assertThat(reader.deserialize(outputs.get(3).value())).isEqualTo(order("o-7", "SHIPPED", 10));
			assertThat(WireFormat.unframe(outputs.get(0).value(), 1000).schemaId())
				.isEqualTo(client.lookup(this.output + "-value", ProtobufSchema.of(Order.getDescriptor()).registrySchema()));
			assertThat(new String(outputs.get(0).headers().lastHeader("source").value(), StandardCharsets.UTF_8))
				.isEqualTo("test");
			assertThat(quarantined).extracting(ConsumerRecord::key).containsExactly("bad-bytes", "bad-id",
					"bad-type");
			assertThat(errorOf(quarantined.get(0))).contains("Malformed lockstep.autoconfigure.Order");
			assertThat(errorOf(quarantined.get(1))).contains("Unknown schema id 987654");
			assertThat(errorOf(quarantined.get(2))).contains("wrote a lockstep.autoconfigure.Header");
			LockstepWorkers workers = context.getBean(LockstepWorkers.class);
			assertThat(workers.worker("normalizer").state().status()).isEqualTo(WorkerStatus.RUNNING);
		}
	}

	private static Order order(String id, String status, long amountCents) {
		return Order.newBuilder().setId(id).setStatus(status).setAmountCents(amountCents).build();
	}

	private static String errorOf(ConsumerRecord<String, byte[]> record) {
		StringBuilder errors = new StringBuilder();
		record.headers().forEach((header) -> {
			if (header.key().startsWith("lockstep.error.")) {
				errors.append(header.key()).append('=').append(new String(header.value(), StandardCharsets.UTF_8))
					.append('\n');
			}
		});
		return errors.toString();
	}

	// Confluent's layout by hand: envelope, message indexes, then the message.
	private static byte[] framed(long id, String indexes, byte[] message) {
		byte[] header = HexFormat.of().parseHex(indexes);
		byte[] payload = new byte[header.length + message.length];
		System.arraycopy(header, 0, payload, 0, header.length);
		System.arraycopy(message, 0, payload, header.length, message.length);
		return WireFormat.frame(id, payload, 1000);
	}

	private void send(KafkaProducer<String, byte[]> producer, String key, byte[] value) throws Exception {
		ProducerRecord<String, byte[]> record = new ProducerRecord<>(this.input, key, value);
		record.headers().add("source", "test".getBytes(StandardCharsets.UTF_8));
		producer.send(record).get();
	}

	private static KafkaProducer<String, byte[]> producer() {
		return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
				new StringSerializer(), new ByteArraySerializer());
	}

	private static List<ConsumerRecord<String, byte[]>> readCommitted(String topic, int count) {
		List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
		try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
						ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(),
						ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ISOLATION_LEVEL_CONFIG,
						"read_committed"),
				new StringDeserializer(), new ByteArrayDeserializer())) {
			consumer.subscribe(List.of(topic));
			await().atMost(Duration.ofSeconds(90))
				.until(() -> {
					consumer.poll(Duration.ofMillis(200)).forEach(records::add);
					return records.size() >= count;
				});
		}
		return records;
	}

	private Map<String, Object> properties() {
		String worker = "lockstep.workers.normalizer.";
		return Map.ofEntries(Map.entry("spring.kafka.bootstrap-servers", broker.bootstrapServers()),
				Map.entry("lockstep.registry.url", registry.url()),
				Map.entry("lockstep.topics." + this.input + ".partitions", 1),
				Map.entry("lockstep.topics." + this.output + ".partitions", 1),
				Map.entry("lockstep.topics." + this.quarantine + ".partitions", 1),
				Map.entry(worker + "source-topics", this.input), Map.entry(worker + "destination", this.output),
				Map.entry(worker + "group-id", "proto-normalizers"),
				Map.entry(worker + "transactional-id", "proto-normalizer"),
				Map.entry(worker + "key.codec", "string"),
				Map.entry(worker + "value.codec", "registry-protobuf"),
				Map.entry(worker + "value.type", Order.class.getName()),
				Map.entry(worker + "output-value.codec", "registry-protobuf"),
				Map.entry(worker + "output-value.type", Order.class.getName()),
				Map.entry(worker + "invalid-input.policy", "quarantine"),
				Map.entry(worker + "invalid-input.quarantine-topic", this.quarantine));
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
