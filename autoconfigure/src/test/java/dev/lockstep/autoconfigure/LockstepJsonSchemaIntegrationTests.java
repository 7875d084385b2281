package dev.lockstep.autoconfigure;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.json.JsonSchema;
import dev.lockstep.registry.json.JsonSchemaDeserializer;
import dev.lockstep.registry.json.JsonSchemaSerializer;
import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.test.registry.TestSchemaRegistry;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.WorkerStatus;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
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
 * A worker declared in properties with {@code registry-json-schema} codecs on a real
 * broker and a registry over HTTP: seed normalization with keys, headers and a tombstone,
 * a value of a newer schema version read into the same class, and the invalid inputs
 * (malformed JSON, an unknown id, a value its schema refuses) quarantined in the same
 * transactions; an id the registry does not know yet (a follower behind its leader)
 * retried, not quarantined; a value whose schema a header names by GUID read, its output
 * framed with the output's id and without the input's header; an output whose schema a
 * header names by GUID when {@code schema-id: header} asks for it.
 */
@ExtendWith(SharedKafkaBroker.class)
class LockstepJsonSchemaIntegrationTests {

	private static final String SCHEMA = "classpath:json-order.schema.json";

	private static KafkaBroker broker;

	private static TestSchemaRegistry registry;

	private final ObjectMapper mapper = new ObjectMapper();

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
	void normalizesJsonSchemaValuesAndQuarantinesInvalidOnes() throws Exception {
		String schemaText = new String(getClass().getResourceAsStream("/json-order.schema.json").readAllBytes(),
				StandardCharsets.UTF_8);
		long v1 = registry.register(this.topics.input + "-value", "JSON", schemaText);
		registry.register(this.topics.output + "-value", "JSON", schemaText);
		// Version 2 allows a note: a v2 value reads into the same class, which ignores it.
		String v2Text = schemaText.replace("\"amount\": { \"type\": \"number\", \"minimum\": 0 }",
				"\"amount\": { \"type\": \"number\", \"minimum\": 0 }, \"note\": { \"type\": \"string\" }");
		assertThat(v2Text).isNotEqualTo(schemaText);
		long v2 = registry.register(this.topics.input + "-value", "JSON", v2Text);
		RegistryClient client = RegistryClient.builder(registry.url()).build();
		JsonSchemaSerializer<Object> writer = JsonSchemaSerializer.of(client, this.topics.input + "-value",
				JsonSchema.parse(schemaText), this.mapper);
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(properties())
			.run(); KafkaProducer<String, byte[]> producer = this.topics.producer()) {
			this.topics.send(producer, "order-1", writer.serialize(new Order("o-1", "paid", new BigDecimal("12.50"))));
			this.topics.send(producer, "order-2", json(v2, "{\"id\":\"o-2\",\"status\":\"refunded\",\"amount\":7,\"note\":\"v2\"}"));
			this.topics.send(producer, "order-3", null);
			this.topics.send(producer, "bad-json", json(v1, "{\"id\":\"o-4\","));
			this.topics.send(producer, "bad-id", json(987_654, "{\"id\":\"o-5\",\"amount\":1}"));
			this.topics.send(producer, "bad-amount", json(v1, "{\"id\":\"o-6\",\"status\":\"paid\",\"amount\":-1}"));
			this.topics.send(producer, "order-7", writer.serialize(new Order("o-7", "shipped", new BigDecimal("0.10"))));
			List<ConsumerRecord<String, byte[]>> outputs = this.topics.readCommitted(this.topics.output, 4);
			List<ConsumerRecord<String, byte[]>> quarantined = this.topics.readCommitted(this.topics.quarantine, 3);
			JsonSchemaDeserializer<Order> reader = JsonSchemaDeserializer.of(client, Order.class, this.mapper);
			assertThat(outputs).extracting(ConsumerRecord::key).containsExactly("order-1", "order-2", "order-3",
					"order-7");
			assertThat(reader.deserialize(outputs.get(0).value()))
				.isEqualTo(new Order("o-1", "PAID", new BigDecimal("12.50")));
			assertThat(reader.deserialize(outputs.get(1).value()))
				.isEqualTo(new Order("o-2", "REFUNDED", new BigDecimal("7")));
			assertThat(outputs.get(2).value()).isNull();
			assertThat(reader.deserialize(outputs.get(3).value()))
				.isEqualTo(new Order("o-7", "SHIPPED", new BigDecimal("0.10")));
			assertThat(WireFormat.unframe(outputs.get(0).value(), 1000).schemaId())
				.isEqualTo(client.lookup(this.topics.output + "-value", JsonSchema.parse(schemaText).registrySchema()));
			assertThat(new String(outputs.get(0).headers().lastHeader("source").value(), StandardCharsets.UTF_8))
				.isEqualTo("test");
			assertThat(quarantined).extracting(ConsumerRecord::key).containsExactly("bad-json", "bad-id",
					"bad-amount");
			assertThat(RegistryWorkerFixture.errorOf(quarantined.get(0))).contains("Malformed JSON");
			assertThat(RegistryWorkerFixture.errorOf(quarantined.get(1))).contains("Unknown schema id 987654");
			assertThat(RegistryWorkerFixture.errorOf(quarantined.get(2))).contains("minimum");
			// A registry follower that has not caught up with a new version yet answers that
			// its id is unknown: retried, never quarantined.
			long v3 = registry.register(this.topics.input + "-value", "JSON", schemaText.replace(
					"\"amount\": { \"type\": \"number\", \"minimum\": 0 }",
					"\"amount\": { \"type\": \"number\", \"minimum\": 0 }, \"channel\": { \"type\": \"string\" }"));
			registry.failNext(2, 404, 40403);
			this.topics.send(producer, "order-8", json(v3, "{\"id\":\"o-8\",\"status\":\"paid\",\"amount\":8,\"channel\":\"web\"}"));
			assertThat(this.topics.readCommitted(this.topics.output, 5)).extracting(ConsumerRecord::key)
				.endsWith("order-8");
			// A Confluent Platform 8 writer names the schema by GUID in a header, before a bare
			// payload; the output is framed with its own id and carries no stale header.
			ProducerRecord<String, byte[]> headerMode = new ProducerRecord<>(this.topics.input, "order-9",
					"{\"id\":\"o-9\",\"status\":\"paid\",\"amount\":9}".getBytes(StandardCharsets.UTF_8));
			UUID guid = registry.guid(v1);
			headerMode.headers()
				.add("__value_schema_id", ByteBuffer.allocate(17)
					.put((byte) 1)
					.putLong(guid.getMostSignificantBits())
					.putLong(guid.getLeastSignificantBits())
					.array());
			producer.send(headerMode).get();
			ConsumerRecord<String, byte[]> fromHeaderMode = this.topics.readCommitted(this.topics.output, 6).get(5);
			assertThat(fromHeaderMode.key()).isEqualTo("order-9");
			assertThat(reader.deserialize(fromHeaderMode.value()))
				.isEqualTo(new Order("o-9", "PAID", new BigDecimal("9")));
			assertThat(fromHeaderMode.headers().lastHeader("__value_schema_id")).isNull();
			LockstepWorkers workers = context.getBean(LockstepWorkers.class);
			assertThat(workers.worker("normalizer").state().status()).isEqualTo(WorkerStatus.RUNNING);
		}
	}

	@Test
	void writesTheOutputSchemaByGuidInAHeaderWhenAsked() throws Exception {
		String schemaText = new String(getClass().getResourceAsStream("/json-order.schema.json").readAllBytes(),
				StandardCharsets.UTF_8);
		long input = registry.register(this.topics.input + "-value", "JSON", schemaText);
		long output = registry.register(this.topics.output + "-value", "JSON", schemaText);
		Map<String, Object> properties = properties();
		properties.put("lockstep.workers.normalizer.output-value.schema-id", "header");
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(properties)
			.run(); KafkaProducer<String, byte[]> producer = this.topics.producer()) {
			this.topics.send(producer, "order-1", json(input, "{\"id\":\"o-1\",\"status\":\"paid\",\"amount\":1}"));
			ConsumerRecord<String, byte[]> written = this.topics.readCommitted(this.topics.output, 1).get(0);
			UUID guid = registry.guid(output);
			assertThat(written.headers().lastHeader("__value_schema_id").value()).isEqualTo(ByteBuffer.allocate(17)
				.put((byte) 1)
				.putLong(guid.getMostSignificantBits())
				.putLong(guid.getLeastSignificantBits())
				.array());
			assertThat(new String(written.value(), StandardCharsets.UTF_8))
				.isEqualTo("{\"id\":\"o-1\",\"status\":\"PAID\",\"amount\":1}");
			JsonSchemaDeserializer<Order> reader = JsonSchemaDeserializer.of(RegistryClient.builder(registry.url())
				.build(), Order.class, this.mapper);
			assertThat(reader.deserialize(written.headers().lastHeader("__value_schema_id").value(), written.value()))
				.isEqualTo(new Order("o-1", "PAID", new BigDecimal("1")));
		}
	}

	private static byte[] json(long id, String json) {
		return WireFormat.frame(id, json.getBytes(StandardCharsets.UTF_8), 1000);
	}

	private Map<String, Object> properties() {
		Map<String, Object> properties = this.topics.properties(registry.url(), "registry-json-schema", Order.class);
		properties.put("lockstep.workers.normalizer.output-value.schema", SCHEMA);
		return properties;
	}

	/**
	 * An order as the JSON schema describes it; properties of newer versions are ignored.
	 *
	 * @param id the order's id
	 * @param status its status
	 * @param amount its amount
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	record Order(String id, String status, BigDecimal amount) {

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		@Bean
		ValueTransformer<Order, Order> normalizer() {
			return (order) -> new Order(order.id(), order.status().toUpperCase(Locale.ROOT), order.amount());
		}

	}

}
