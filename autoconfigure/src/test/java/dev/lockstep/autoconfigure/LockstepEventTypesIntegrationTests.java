package dev.lockstep.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lockstep.autoconfigure.events.OrderPlaced;
import dev.lockstep.autoconfigure.events.OrderShipped;
import dev.lockstep.autoconfigure.events.PaymentTaken;
import dev.lockstep.autoconfigure.events.proto.ShopEvents;

import dev.lockstep.registry.kafka.RegistryAvroDeserializer;
import dev.lockstep.registry.kafka.RegistryAvroSerializer;
import dev.lockstep.registry.kafka.RegistryProtobufDeserializer;
import dev.lockstep.registry.kafka.RegistryProtobufSerializer;
import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.test.registry.TestSchemaRegistry;
import dev.lockstep.worker.ValueTransformer;
import com.google.protobuf.Message;
import org.apache.avro.specific.SpecificRecord;
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
 * A topic carrying three event types, as Confluent's {@code RecordNameStrategy} writes
 * them: a worker reads each record into the generated class its writer schema names
 * ({@code type: org.apache.avro.specific.SpecificRecord}, or
 * {@code com.google.protobuf.Message}) and writes each under its own record-named subject
 * ({@code subject-name-strategy: record-name}), on a real broker.
 */
@ExtendWith(SharedKafkaBroker.class)
class LockstepEventTypesIntegrationTests {

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
	void aWorkerReadsAndWritesEachEventTypeOfATopicAsItsOwnClass() throws Exception {
		Map<String, Object> byRecordName = Map.of("schema.registry.url", registry.url(), "auto.register.schemas", true,
				"value.subject.name.strategy", "io.confluent.kafka.serializers.subject.RecordNameStrategy");
		OrderPlaced placed = new OrderPlaced("o-1", 1250L);
		PaymentTaken paid = new PaymentTaken("o-1", "card");
		OrderShipped shipped = new OrderShipped("o-1", "post", 2);
		Map<String, Object> properties = this.topics.properties(registry.url(), "registry-avro", SpecificRecord.class);
		properties.put("lockstep.registry.auto-register", true);
		properties.put("lockstep.workers.normalizer.output-value.subject-name-strategy", "record-name");
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(properties)
			.run(); KafkaProducer<String, byte[]> producer = this.topics.producer();
				RegistryAvroSerializer<SpecificRecord> writer = new RegistryAvroSerializer<>()) {
			writer.configure(byRecordName, false);
			this.topics.send(producer, "o-1", writer.serialize(this.topics.input, placed));
			this.topics.send(producer, "o-1", writer.serialize(this.topics.input, paid));
			this.topics.send(producer, "o-1", writer.serialize(this.topics.input, shipped));
			List<ConsumerRecord<String, byte[]>> outputs = this.topics.readCommitted(this.topics.output, 3);
			try (RegistryAvroDeserializer<Object> reader = new RegistryAvroDeserializer<>()) {
				reader.configure(Map.of("schema.registry.url", registry.url(), "specific.avro.reader", true), false);
				assertThat(outputs).extracting((record) -> reader.deserialize(record.topic(), record.value()))
					.containsExactly(placed, paid, shipped);
			}
		}
		for (String event : List.of("OrderPlaced", "PaymentTaken", "OrderShipped")) {
			assertThat(registry.requestCount("POST /subjects/dev.lockstep.autoconfigure.events." + event + "/versions"))
				.as(event)
				.isPositive();
		}
		assertThat(registry.requestCount("POST /subjects/" + this.topics.output + "-value/versions")).isZero();
	}

	@Test
	void aWorkerReadsAndWritesEachProtobufEventTypeOfATopicAsItsOwnClass() throws Exception {
		Map<String, Object> byRecordName = Map.of("schema.registry.url", registry.url(), "auto.register.schemas", true,
				"value.subject.name.strategy", "io.confluent.kafka.serializers.subject.RecordNameStrategy");
		ShopEvents.OrderPlaced placed = ShopEvents.OrderPlaced.newBuilder().setOrder("o-1").setAmountCents(1250).build();
		ShopEvents.PaymentTaken paid = ShopEvents.PaymentTaken.newBuilder().setOrder("o-1").setMethod("card").build();
		ShopEvents.OrderShipped shipped = ShopEvents.OrderShipped.newBuilder().setOrder("o-1").setCarrier("post")
			.setParcels(2)
			.build();
		Map<String, Object> properties = this.topics.properties(registry.url(), "registry-protobuf", Message.class);
		properties.put("lockstep.registry.auto-register", true);
		properties.put("lockstep.workers.normalizer.output-value.subject-name-strategy", "record-name");
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ProtobufApp.class)
			.web(WebApplicationType.NONE)
			.properties(properties)
			.run(); KafkaProducer<String, byte[]> producer = this.topics.producer();
				RegistryProtobufSerializer<Message> writer = new RegistryProtobufSerializer<>()) {
			writer.configure(byRecordName, false);
			this.topics.send(producer, "o-1", writer.serialize(this.topics.input, placed));
			this.topics.send(producer, "o-1", writer.serialize(this.topics.input, paid));
			this.topics.send(producer, "o-1", writer.serialize(this.topics.input, shipped));
			List<ConsumerRecord<String, byte[]>> outputs = this.topics.readCommitted(this.topics.output, 3);
			try (RegistryProtobufDeserializer<Message> reader = new RegistryProtobufDeserializer<>()) {
				reader.configure(Map.of("schema.registry.url", registry.url(), "derive.type", true), false);
				assertThat(outputs).extracting((record) -> reader.deserialize(record.topic(), record.value()))
					.containsExactly(placed, paid, shipped);
			}
		}
		assertThat(ProtobufApp.seen).containsExactly(ShopEvents.OrderPlaced.class, ShopEvents.PaymentTaken.class,
				ShopEvents.OrderShipped.class);
		for (String event : List.of("OrderPlaced", "PaymentTaken", "OrderShipped")) {
			assertThat(registry.requestCount("POST /subjects/lockstep.autoconfigure.events." + event + "/versions"))
				.as(event)
				.isPositive();
		}
		assertThat(registry.requestCount("POST /subjects/" + this.topics.output + "-value/versions")).isZero();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class ProtobufApp {

		static final List<Class<?>> seen = new CopyOnWriteArrayList<>();

		// Each event as it came, noting the class it was read into.
		@Bean
		ValueTransformer<Message, Message> normalizer() {
			return (event) -> {
				seen.add(event.getClass());
				return event;
			};
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		// Each event as it came: the worker's job here is to keep each type its own.
		@Bean
		ValueTransformer<SpecificRecord, SpecificRecord> normalizer() {
			return (event) -> event;
		}

	}

}
