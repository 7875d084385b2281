package dev.lockstep.registry.json;

import dev.lockstep.registry.internal.WriterSchemas;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.SchemaIdSource;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.test.Order;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The JSON Schema codecs against a registry over HTTP: the bytes Confluent's
 * {@code KafkaJsonSchemaSerializer} writes (magic byte 0, the 4-byte big-endian id, the
 * value's UTF-8 JSON), validation both ways, and every way a message can be bad.
 */
class JsonSchemaCodecsTests {

	static final String ORDER_SCHEMA = resource("order.schema.json");

	private final TestSchemaRegistry registry = TestSchemaRegistry.start();

	private final RegistryClient client = RegistryClient.builder(this.registry.url()).retries(0).build();

	private final ObjectMapper mapper = new ObjectMapper();

	@AfterEach
	void stopRegistry() {
		this.registry.close();
	}

	@Test
	void writesTheConfluentWireFormat() {
		this.registry.register("other-value", "JSON", "{\"type\": \"string\"}");
		long id = this.registry.register("orders-value", "JSON", ORDER_SCHEMA);
		JsonSchemaSerializer<JsonOrder> serializer = JsonSchemaSerializer.of(this.client, "orders-value",
				JsonSchema.parse(ORDER_SCHEMA), this.mapper);
		byte[] message = serializer.serialize(new JsonOrder("o-1", new BigDecimal("12.5")));
		assertThat(id).isEqualTo(2);
		assertThat(message).isEqualTo(framed(2, "{\"id\":\"o-1\",\"amount\":12.5}"));
	}

	@Test
	void readsWhatConfluentWritesIntoAClassOrATree() {
		long id = this.registry.register("orders-value", "JSON", ORDER_SCHEMA);
		// As Confluent's serializer writes it: the envelope, then the JSON as Jackson wrote it.
		byte[] message = framed(id, "{\"amount\":7,\"id\":\"o-2\"}");
		JsonOrder order = JsonSchemaDeserializer.of(this.client, JsonOrder.class, this.mapper).deserialize(message);
		JsonNode tree = JsonSchemaDeserializer.of(this.client, JsonNode.class, this.mapper).deserialize(message);
		assertThat(order).isEqualTo(new JsonOrder("o-2", new BigDecimal("7")));
		assertThat(tree.get("id").textValue()).isEqualTo("o-2");
		assertThat(tree.get("amount").intValue()).isEqualTo(7);
	}

	@Test
	void roundTripsAndKeepsTombstones() {
		this.registry.register("orders-value", "JSON", ORDER_SCHEMA);
		JsonSchemaSerializer<Object> serializer = JsonSchemaSerializer.of(this.client, "orders-value",
				JsonSchema.parse(ORDER_SCHEMA), this.mapper);
		JsonSchemaDeserializer<JsonOrder> deserializer = JsonSchemaDeserializer.of(this.client, JsonOrder.class,
				this.mapper);
		JsonOrder order = new JsonOrder("o-3", new BigDecimal("0.10"));
		assertThat(deserializer.deserialize(serializer.serialize(order))).isEqualTo(order);
		JsonNode tree = this.mapper.createObjectNode().put("id", "o-4").put("amount", 3);
		assertThat(deserializer.deserialize(serializer.serialize(tree))).isEqualTo(new JsonOrder("o-4",
				new BigDecimal("3")));
		assertThat(serializer.serialize(null)).isNull();
		assertThat(deserializer.deserialize(null)).isNull();
	}

	@Test
	void aValueThatDoesNotMatchTheSchemaIsRefusedOnWriteUnlessValidationIsOff() {
		this.registry.register("orders-value", "JSON", ORDER_SCHEMA);
		JsonSchema schema = JsonSchema.parse(ORDER_SCHEMA);
		JsonOrder negative = new JsonOrder("o-5", new BigDecimal("-1"));
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> JsonSchemaSerializer.of(this.client, "orders-value", schema, this.mapper)
				.serialize(negative))
			.withMessageContaining("orders-value")
			.withMessageContaining("minimum");
		JsonSchemaSerializer<JsonOrder> lenient = JsonSchemaSerializer.of(this.client, "orders-value", schema,
				this.mapper, SchemaIdSource.LOOKUP, false, WireFormat.DEFAULT_MAX_BYTES);
		assertThat(new String(lenient.serialize(negative), StandardCharsets.UTF_8)).endsWith("\"amount\":-1}");
	}

	@Test
	void aValueThatDoesNotMatchItsWriterSchemaIsRefusedOnReadUnlessValidationIsOff() {
		long id = this.registry.register("orders-value", "JSON", ORDER_SCHEMA);
		byte[] message = framed(id, "{\"id\":\"o-6\",\"amount\":\"ten\"}");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> JsonSchemaDeserializer.of(this.client, JsonNode.class, this.mapper).deserialize(message))
			.withMessageContaining("writer schema " + id);
		JsonNode read = JsonSchemaDeserializer
			.of(this.client, JsonNode.class, this.mapper, false, WireFormat.DEFAULT_MAX_BYTES, 8)
			.deserialize(message);
		assertThat(read.get("amount").textValue()).isEqualTo("ten");
	}

	@Test
	void malformedJsonIsInvalidData() {
		long id = this.registry.register("orders-value", "JSON", ORDER_SCHEMA);
		JsonSchemaDeserializer<JsonNode> deserializer = JsonSchemaDeserializer
			.of(this.client, JsonNode.class, this.mapper, false, WireFormat.DEFAULT_MAX_BYTES, 8);
		for (String payload : new String[] { "", "{\"id\":\"o\"", "{\"id\":\"o\",\"amount\":1} {}",
				"{\"id\":\"a\",\"id\":\"b\",\"amount\":1}", "\u00ff\u00fe", "[1,2" }) {
			assertThatExceptionOfType(InvalidDataException.class).as(payload)
				.isThrownBy(() -> deserializer.deserialize(framed(id, payload)));
		}
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> deserializer.deserialize(new byte[] { 2, 0, 0, 0, 1, '{', '}' }))
			.withMessageContaining("magic byte");
	}

	@Test
	void jsonTheClassCannotHoldIsInvalidData() {
		long id = this.registry.register("loose-value", "JSON", "{\"type\": \"object\"}");
		JsonSchemaDeserializer<JsonOrder> deserializer = JsonSchemaDeserializer.of(this.client, JsonOrder.class,
				this.mapper);
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> deserializer.deserialize(framed(id, "{\"id\":\"o\",\"amount\":1,\"colour\":\"red\"}")))
			.withMessageContaining(JsonOrder.class.getName());
	}

	@Test
	void anUnknownIdOrAnotherFormatsIdIsInvalidDataAndAnOutageIsNot() {
		long avroId = this.registry.register("avro-value", Order.getClassSchema());
		JsonSchemaDeserializer<JsonNode> deserializer = JsonSchemaDeserializer.of(this.client, JsonNode.class,
				this.mapper);
		for (int answer = 1; answer < WriterSchemas.UNKNOWN_ID_ANSWERS; answer++) {
			assertThatThrownBy(() -> deserializer.deserialize(framed(999, "{}")))
				.isInstanceOf(SerializationException.class)
				.isNotInstanceOf(InvalidDataException.class)
				.hasMessageContaining("unknown to the registry");
		}
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> deserializer.deserialize(framed(999, "{}")))
			.withMessageContaining("Unknown schema id 999");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> deserializer.deserialize(framed(avroId, "{}")))
			.withMessageContaining("AVRO schema, not JSON");
		long id = this.registry.register("orders-value", "JSON", ORDER_SCHEMA);
		this.registry.stop();
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> deserializer.deserialize(framed(id, "{\"id\":\"o\",\"amount\":1}")))
			.isNotInstanceOf(InvalidDataException.class)
			.withCauseInstanceOf(RegistryException.class);
	}

	@Test
	void theIdIsLookedUpRegisteredOrTheLatestVersions() {
		JsonSchema schema = JsonSchema.parse(ORDER_SCHEMA);
		assertThatExceptionOfType(RegistryException.class)
			.isThrownBy(() -> JsonSchemaSerializer.of(this.client, "orders-value", schema, this.mapper));
		JsonSchemaSerializer<JsonOrder> registering = JsonSchemaSerializer.of(this.client, "orders-value", schema,
				this.mapper, SchemaIdSource.AUTO_REGISTER, true, WireFormat.DEFAULT_MAX_BYTES);
		// Key order and white space aside, the registry holds the same schema.
		JsonSchema reordered = JsonSchema.parse(this.mapper.createObjectNode()
			.setAll((com.fasterxml.jackson.databind.node.ObjectNode) schema.tree())
			.toPrettyString());
		assertThat(JsonSchemaSerializer.of(this.client, "orders-value", reordered, this.mapper).schemaId())
			.isEqualTo(registering.schemaId());
		long v2 = this.registry.register("orders-value", "JSON", "{\"type\": \"object\"}");
		JsonSchemaSerializer<JsonOrder> latest = JsonSchemaSerializer.of(this.client, "orders-value", null,
				this.mapper, SchemaIdSource.LATEST_VERSION, true, WireFormat.DEFAULT_MAX_BYTES);
		assertThat(latest.schemaId()).isEqualTo(v2);
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> JsonSchemaSerializer.of(this.client, "orders-value", schema, this.mapper,
					SchemaIdSource.LATEST_VERSION, true, WireFormat.DEFAULT_MAX_BYTES))
			.withMessageContaining("latest version (2)");
	}

	@Test
	void aRemoteReferenceIsNeverFetched() {
		long target = this.registry.register("string-value", "JSON", "{\"type\": \"string\"}");
		String path = "/schemas/ids/" + target;
		String schema = "{\"type\": \"object\", \"properties\": {\"id\": {\"$ref\": \"" + this.registry.url() + path
				+ "\"}}}";
		int before = this.registry.requestCount("GET " + path);
		try {
			JsonSchema.parse(schema).validate(this.mapper.createObjectNode().put("id", 5));
		}
		catch (IllegalArgumentException ex) {
			// Refusing the reference is as good as not following it.
		}
		catch (RuntimeException ex) {
			assertThat(ex).as("an unresolvable reference").isNotNull();
		}
		assertThat(this.registry.requestCount("GET " + path)).isEqualTo(before);
	}

	@Test
	void aNumberWithAHugeExponentIsInvalidDataNotAHang() {
		long id = this.registry.register("cents-value", "JSON", "{\"type\": \"number\", \"multipleOf\": 0.01}");
		JsonSchemaDeserializer<JsonNode> deserializer = JsonSchemaDeserializer.of(this.client, JsonNode.class,
				this.mapper);
		assertTimeoutPreemptively(Duration.ofSeconds(30),
				() -> assertThatExceptionOfType(InvalidDataException.class)
					.isThrownBy(() -> deserializer.deserialize(framed(id, "1e999999999")))
					.withMessageContaining("exponent"));
		assertThat(deserializer.deserialize(framed(id, "12.34")).decimalValue()).isEqualByComparingTo("12.34");
	}

	@Test
	void aNumberWhoseExponentOverflowsIsInvalidData() {
		// Found by fuzzing: Jackson reports this one as a NumberFormatException, not an IOException.
		long id = this.registry.register("cents-value", "JSON", "{\"type\": \"number\"}");
		JsonSchemaDeserializer<JsonNode> deserializer = JsonSchemaDeserializer.of(this.client, JsonNode.class,
				this.mapper);
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> deserializer.deserialize(framed(id, "-0.0001e3000130001")))
			.withMessageContaining("Malformed JSON");
	}

	@Test
	void aReferenceToTheClassPathIsNeverLoaded() {
		// order.schema.json is on the class path: loaded, it would refuse the string.
		String schema = "{\"$ref\": \"classpath:order.schema.json\"}";
		try {
			assertThat(JsonSchema.parse(schema).validate(this.mapper.getNodeFactory().textNode("x")))
				.noneMatch((error) -> error.contains("object"));
		}
		catch (IllegalArgumentException ex) {
			// Refusing the reference is as good as not following it.
		}
	}

	@Test
	void valuesNestedDeeperThanTheStackAreInvalidDataNotAnError() throws Exception {
		long id = this.registry.register("nested-value", "JSON",
				"{\"$ref\": \"#/definitions/a\", \"definitions\": {\"a\": {\"type\": \"array\", \"items\": "
						+ "{\"$ref\": \"#/definitions/a\"}}}}");
		JsonSchemaDeserializer<JsonNode> deserializer = JsonSchemaDeserializer.of(this.client, JsonNode.class,
				this.mapper);
		byte[] message = framed(id, "[".repeat(999) + "]".repeat(999));
		java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
		Thread small = new Thread(null, () -> {
			try {
				deserializer.deserialize(message);
			}
			catch (Throwable ex) {
				thrown.set(ex);
			}
		}, "small-stack", 192 * 1024);
		small.start();
		small.join();
		assertThat(thrown.get()).as("what a deep value on a small stack gives")
			.satisfiesAnyOf((ex) -> assertThat(ex).isNull(), (ex) -> assertThat(ex).isInstanceOf(InvalidDataException.class));
	}

	@Test
	void aWriterSchemaLockstepCannotUseIsInvalidData() {
		this.registry.respondNext(1, 200, java.util.Map.of(),
				"{\"schema\": \"{}\", \"schemaType\": \"JSON\", \"references\": [{\"name\": \"a.json\", \"subject\": \"a\", \"version\": 1}]}"
					.getBytes(StandardCharsets.UTF_8));
		JsonSchemaDeserializer<JsonNode> deserializer = JsonSchemaDeserializer.of(this.client, JsonNode.class,
				this.mapper);
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> deserializer.deserialize(framed(5, "{}")))
			.withMessageContaining("names version 1 of subject a, which the registry does not have");
	}

	@Test
	void aClassThatCannotBeReadIntoIsNotTheRecordsFault() {
		long id = this.registry.register("loose-value", "JSON", "{\"type\": \"object\"}");
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> JsonSchemaDeserializer.of(this.client, NoCreator.class, this.mapper)
				.deserialize(framed(id, "{\"a\": 1}")))
			.isNotInstanceOf(InvalidDataException.class);
	}

	@Test
	void invalidSchemasAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> JsonSchema.parse("{\"type\": "));
		assertThatIllegalArgumentException().isThrownBy(() -> JsonSchema.parse("[1]"));
		assertThatIllegalArgumentException().isThrownBy(() -> JsonSchema.parse("{} {}"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> JsonSchema.parse("\"" + "x".repeat(RegistryClient.MAX_SCHEMA_BYTES) + "\""));
		assertThat(JsonSchema.parse("true").validate(this.mapper.createObjectNode())).isEmpty();
	}

	/**
	 * A class Jackson cannot create: no default constructor, no creator.
	 */
	static final class NoCreator {

		NoCreator(String a, String b) {
		}

	}

	static byte[] framed(long id, String json) {
		return WireFormat.frame(id, json.getBytes(StandardCharsets.UTF_8), WireFormat.DEFAULT_MAX_BYTES);
	}

	static String resource(String name) {
		try (InputStream in = JsonSchemaCodecsTests.class.getClassLoader().getResourceAsStream(name)) {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			in.transferTo(out);
			return out.toString(StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
