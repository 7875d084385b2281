package dev.lockstep.registry.kafka;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.json.JsonOrder;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The JSON Schema Kafka serdes configured with Confluent's keys.
 */
class RegistryJsonSchemaSerdeTests {

	private static final JsonOrder ORDER = new JsonOrder("o-1", new BigDecimal("12.50"));

	private final TestSchemaRegistry registry = TestSchemaRegistry.start();

	@AfterEach
	void stopRegistry() {
		this.registry.close();
	}

	@Test
	void writesWithTheConfiguredSchemaAndReadsIntoTheConfiguredType() {
		RegistryJsonSchemaSerializer<JsonOrder> serializer = serializer(
				Map.of("lockstep.json.value.schema", "classpath:order.schema.json", "auto.register.schemas", true));
		byte[] message = serializer.serialize("orders", ORDER);
		assertThat(this.registry.requestCount("POST /subjects/orders-value/versions")).isOne();
		assertThat(new String(message, WireFormat.HEADER_BYTES, message.length - WireFormat.HEADER_BYTES,
				StandardCharsets.UTF_8))
			.isEqualTo("{\"id\":\"o-1\",\"amount\":12.50}");
		RegistryJsonSchemaDeserializer<Object> typed = deserializer(Map.of("json.value.type", JsonOrder.class.getName()));
		assertThat(typed.deserialize("orders", message)).isEqualTo(ORDER);
		RegistryJsonSchemaDeserializer<Object> trees = deserializer(Map.of());
		assertThat(trees.deserialize("orders", message)).isInstanceOf(JsonNode.class);
		assertThat(serializer.serialize("orders", null)).isNull();
	}

	@Test
	void aSchemaFileAndTheRecordNameStrategyNameTheSubjectByTheSchemasTitle(@TempDir Path dir) throws Exception {
		Path file = dir.resolve("order.json");
		Files.writeString(file, JsonSchemaSerdeSchemas.ORDER);
		RegistryJsonSchemaSerializer<JsonOrder> serializer = serializer(Map.of("lockstep.json.value.schema",
				file.toString(), "auto.register.schemas", "true", "value.subject.name.strategy",
				"io.confluent.kafka.serializers.subject.RecordNameStrategy"));
		serializer.serialize("orders", ORDER);
		assertThat(this.registry.requestCount("POST /subjects/Order/versions")).isOne();
	}

	@Test
	void theLatestVersionNeedsNoSchemaOfItsOwn() {
		long id = this.registry.register("orders-value", "JSON", JsonSchemaSerdeSchemas.ORDER);
		byte[] message = serializer(Map.of("use.latest.version", true)).serialize("orders", ORDER);
		assertThat(WireFormat.unframe(message, 1000).schemaId()).isEqualTo(id);
	}

	@Test
	void validationIsOnByDefaultAndJsonFailInvalidSchemaTurnsItOff() {
		this.registry.register("orders-value", "JSON", JsonSchemaSerdeSchemas.ORDER);
		JsonOrder negative = new JsonOrder("o-2", new BigDecimal("-3"));
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> serializer(Map.of("lockstep.json.value.schema", "classpath:order.schema.json"))
				.serialize("orders", negative));
		byte[] written = serializer(Map.of("lockstep.json.value.schema", "classpath:order.schema.json",
				"json.fail.invalid.schema", "false"))
			.serialize("orders", negative);
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> deserializer(Map.of()).deserialize("orders", written));
		assertThat(deserializer(Map.of("json.fail.invalid.schema", false, "json.value.type", JsonOrder.class))
			.deserialize("orders", written)).isEqualTo(negative);
	}

	@Test
	void unknownPropertiesFailTheReadUnlessTurnedOff() {
		long id = this.registry.register("loose-value", "JSON", "{\"type\": \"object\"}");
		byte[] message = WireFormat.frame(id,
				"{\"id\":\"o\",\"amount\":1,\"colour\":\"red\"}".getBytes(StandardCharsets.UTF_8), 1000);
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> deserializer(Map.of("json.value.type", JsonOrder.class.getName())).deserialize("t",
					message));
		assertThat(deserializer(Map.of("json.value.type", JsonOrder.class.getName(), "json.fail.unknown.properties",
				false))
			.deserialize("t", message)).isEqualTo(new JsonOrder("o", BigDecimal.ONE));
	}

	@Test
	void badConfigurationIsRefusedAtConfigure() {
		assertThatExceptionOfType(ConfigException.class).isThrownBy(() -> serializer(Map.of()))
			.withMessageContaining("lockstep.json.value.schema");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> serializer(Map.of("lockstep.json.value.schema", "classpath:missing.json")))
			.withMessageContaining("No such resource");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> serializer(Map.of("lockstep.json.value.schema", "classpath:order.schema.json",
					"json.fail.invalid.schemas", "true")))
			.withMessageContaining("did you mean 'json.fail.invalid.schema'");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> serializer(Map.of("lockstep.json.value.schema", "classpath:order.schema.json",
					"json.write.dates.iso8601", "true")))
			.withMessageContaining("would change data");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> deserializer(Map.of("json.value.type", "com.example.Missing")))
			.withMessageContaining("No such class");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> deserializer(Map.of("derive.type", true)))
			.withMessageContaining("derives no class from a JSON schema's javaType; set json.value.type instead");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> serializer(Map.of("lockstep.json.value.schema", "classpath:untitled.schema.json",
					"value.subject.name.strategy", "RecordNameStrategy")))
			.withMessageContaining("title");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> serializer(Map.of("use.latest.version", true, "value.subject.name.strategy",
					"TopicRecordNameStrategy")))
			.withMessageContaining("lockstep.json.value.schema");
	}

	private RegistryJsonSchemaSerializer<JsonOrder> serializer(Map<String, Object> extra) {
		RegistryJsonSchemaSerializer<JsonOrder> serializer = new RegistryJsonSchemaSerializer<>();
		serializer.configure(config(extra), false);
		return serializer;
	}

	private RegistryJsonSchemaDeserializer<Object> deserializer(Map<String, Object> extra) {
		RegistryJsonSchemaDeserializer<Object> deserializer = new RegistryJsonSchemaDeserializer<>();
		deserializer.configure(config(extra), false);
		return deserializer;
	}

	private Map<String, Object> config(Map<String, Object> extra) {
		Map<String, Object> config = new HashMap<>(extra);
		config.put("schema.registry.url", this.registry.url());
		config.put("lockstep.registry.retries", 0);
		return config;
	}

}
