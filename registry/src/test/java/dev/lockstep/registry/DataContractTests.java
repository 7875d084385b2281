package dev.lockstep.registry;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.DynamicMessage;
import dev.lockstep.registry.avro.AvroDeserializer;
import dev.lockstep.registry.avro.AvroSerializer;
import dev.lockstep.registry.json.JsonSchema;
import dev.lockstep.registry.json.JsonSchemaDeserializer;
import dev.lockstep.registry.json.JsonSchemaSerializer;
import dev.lockstep.registry.kafka.RegistryAvroDeserializer;
import dev.lockstep.registry.kafka.RegistryAvroSerializer;
import dev.lockstep.registry.protobuf.ProtobufDeserializer;
import dev.lockstep.registry.protobuf.ProtobufSchema;
import dev.lockstep.registry.protobuf.ProtobufSerializer;
import dev.lockstep.registry.protobuf.test.Order;
import dev.lockstep.registry.server.EmbeddedSchemaRegistry;
import dev.lockstep.test.registry.RegistryRequests;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Confluent data contracts ({@code metadata}, {@code ruleSet}): kept and returned by the
 * embedded registry, and a rule Lockstep cannot run refused in the direction it applies
 * to, by every format's codecs, never silently skipped.
 */
class DataContractTests {

	private static final ObjectMapper JSON = new ObjectMapper();

	private static final String AVRO_ORDER = """
			{"type": "record", "name": "Order", "namespace": "contracts",
			 "fields": [{"name": "id", "type": "string"}, {"name": "ssn", "type": "string"}]}""";

	private static final String JSON_ORDER = """
			{"$schema": "http://json-schema.org/draft-07/schema#", "title": "Order", "type": "object",
			 "properties": {"id": {"type": "string"}, "ssn": {"type": "string"}}, "required": ["id"]}""";

	private static final String METADATA = "{\"properties\":{\"owner\":\"payments\"},\"tags\":{\"ssn\":[\"PII\"]}}";

	private EmbeddedSchemaRegistry registry;

	@AfterEach
	void stopRegistry() {
		if (this.registry != null) {
			this.registry.close();
		}
	}

	@Test
	void theEmbeddedRegistryKeepsAndReturnsMetadataAndRuleSetAcrossARestart(@TempDir Path data) throws Exception {
		this.registry = EmbeddedSchemaRegistry.builder().dataDirectory(data).start();
		String ruleSet = rules("domainRules", rule("encryptPii", "ENCRYPT", "WRITEREAD", false));
		JsonNode registered = post("/subjects/orders-value/versions", body(AVRO_ORDER, METADATA, ruleSet));
		long id = registered.path("id").asLong();
		JsonNode byId = get("/schemas/ids/" + id);
		assertThat(byId.path("metadata")).isEqualTo(JSON.readTree(METADATA));
		assertThat(byId.path("ruleSet")).isEqualTo(JSON.readTree(ruleSet));
		// Without a contract of its own, a request matches the version with one (as Confluent's does)...
		assertThat(post("/subjects/orders-value/versions", body(AVRO_ORDER, null, null)).path("id").asLong())
			.isEqualTo(id);
		assertThat(post("/subjects/orders-value", body(AVRO_ORDER, null, null)).path("id").asLong()).isEqualTo(id);
		// ...with another contract, it is a new version and a new id.
		String otherRules = rules("domainRules", rule("checkId", "CEL", "WRITE", false));
		long second = post("/subjects/orders-value/versions", body(AVRO_ORDER, null, otherRules)).path("id").asLong();
		assertThat(second).isNotEqualTo(id);
		this.registry.close();
		this.registry = EmbeddedSchemaRegistry.builder().dataDirectory(data).start();
		assertThat(get("/subjects/orders-value/versions/1").path("ruleSet")).isEqualTo(JSON.readTree(ruleSet));
		assertThat(get("/subjects/orders-value/versions/latest").path("ruleSet")).isEqualTo(JSON.readTree(otherRules));
		assertThat(get("/schemas/ids/" + second).path("metadata").isMissingNode()).isTrue();
	}

	@Test
	void aNewVersionRegisteredWithoutAContractKeepsItsSubjects() throws Exception {
		this.registry = EmbeddedSchemaRegistry.builder().start();
		String ruleSet = rules("domainRules", rule("encryptPii", "ENCRYPT", "WRITEREAD", false));
		post("/subjects/orders-value/versions", body(AVRO_ORDER, METADATA, ruleSet));
		String evolved = AVRO_ORDER.replace("\"string\"}]}",
				"\"string\"}, {\"name\": \"note\", \"type\": \"string\", \"default\": \"\"}]}");
		long id = post("/subjects/orders-value/versions", body(evolved, null, null)).path("id").asLong();
		assertThat(get("/schemas/ids/" + id).path("ruleSet")).isEqualTo(JSON.readTree(ruleSet));
		assertThat(get("/schemas/ids/" + id).path("metadata")).isEqualTo(JSON.readTree(METADATA));
	}

	@Test
	void theEmbeddedRegistryRefusesAMalformedRuleSet() throws Exception {
		this.registry = EmbeddedSchemaRegistry.builder().start();
		HttpResponse<String> response = new RegistryRequests(this.registry.url()).send("POST",
				"/subjects/orders-value/versions",
				body(AVRO_ORDER, null, "{\"domainRules\": [{\"name\": \"noType\"}]}"));
		assertThat(response.statusCode()).isEqualTo(422);
		assertThat(response.body()).contains("42201").contains("textual name and type");
	}

	@ParameterizedTest
	@EnumSource(Format.class)
	void aReaderRefusesAWriterSchemaWithARuleToRunOnReadNamingIt(Format format) {
		this.registry = EmbeddedSchemaRegistry.builder().start();
		byte[] message = format.written(this.registry,
				rules("domainRules", rule("encryptPii", "ENCRYPT", "WRITEREAD", false)));
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> format.read(client(), message))
			.withCauseInstanceOf(DataContractException.class)
			.withMessageContaining("rule 'encryptPii' (type ENCRYPT, TRANSFORM, mode WRITEREAD, in domainRules)")
			.withMessageContaining("applies on read")
			.withMessageContaining("lockstep.registry.ignored-rules");
	}

	@ParameterizedTest
	@EnumSource(Format.class)
	void aReaderReadsPastRulesThatDoNotApplyOnRead(Format format) {
		this.registry = EmbeddedSchemaRegistry.builder().start();
		String ruleSet = "{\"domainRules\": [" + rule("checkOnWrite", "CEL", "WRITE", false) + ", "
				+ rule("switchedOff", "ENCRYPT", "WRITEREAD", true) + "], \"migrationRules\": ["
				+ rule("renameField", "JSONATA", "UPDOWN", false) + "]}";
		byte[] message = format.written(this.registry, ruleSet);
		assertThat(format.read(client(), message)).isNotNull();
	}

	@ParameterizedTest
	@EnumSource(Format.class)
	void anIgnoredRuleIsReadPastByNameOrByType(Format format) {
		this.registry = EmbeddedSchemaRegistry.builder().start();
		byte[] message = format.written(this.registry, "{\"domainRules\": ["
				+ rule("mustHaveId", "CEL", "READ", false) + "], \"encodingRules\": ["
				+ rule("encryptPayload", "ENCRYPT_PAYLOAD", "WRITEREAD", false) + "]}");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> format.read(client("mustHaveId"), message))
			.withMessageContaining("rule 'encryptPayload' (type ENCRYPT_PAYLOAD");
		assertThat(format.read(client("mustHaveId", "ENCRYPT_PAYLOAD"), message)).isNotNull();
		assertThat(format.read(client("CEL", "encryptPayload"), message)).isNotNull();
	}

	@ParameterizedTest
	@EnumSource(Format.class)
	void aWriterRefusesASchemaWithARuleToRunOnWriteNamingIt(Format format) {
		this.registry = EmbeddedSchemaRegistry.builder().start();
		String ruleSet = rules("domainRules", rule("checkOnWrite", "CEL", "WRITE", false));
		format.register(this.registry, ruleSet);
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> format.write(client()))
			.withRootCauseInstanceOf(DataContractException.class)
			.withMessageContaining("subject orders-value")
			.withMessageContaining("rule 'checkOnWrite' (type CEL, TRANSFORM, mode WRITE, in domainRules)")
			.withMessageContaining("applies on write");
		assertThat(format.write(client("checkOnWrite"))).isNotEmpty();
	}

	@Test
	void anAutoRegisteringWriterRefusesTheContractItsNewVersionInherits() {
		this.registry = EmbeddedSchemaRegistry.builder().start();
		this.registry.register("orders-value", new RegistrySchema(RegistrySchema.AVRO, AVRO_ORDER, List.of(), null,
				rules("encodingRules", rule("encryptPayload", "ENCRYPT_PAYLOAD", "WRITEREAD", false))));
		Schema evolved = new Schema.Parser().parse(AVRO_ORDER.replace("\"string\"}]}",
				"\"string\"}, {\"name\": \"note\", \"type\": \"string\", \"default\": \"\"}]}"));
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> AvroSerializer.generic(client(), "orders-value", evolved, SchemaIdSource.AUTO_REGISTER,
					WireFormat.DEFAULT_MAX_BYTES))
			.withMessageContaining("rule 'encryptPayload'");
	}

	@Test
	void kafkaSerdesTakeTheIgnoredRulesAsAList() {
		this.registry = EmbeddedSchemaRegistry.builder().start();
		this.registry.register("orders-value", new RegistrySchema(RegistrySchema.AVRO, AVRO_ORDER, List.of(), null,
				rules("domainRules", rule("encryptPii", "ENCRYPT", "WRITEREAD", false))));
		Map<String, Object> refusing = Map.of("schema.registry.url", this.registry.url(), "use.latest.version", true);
		GenericRecord order = Format.avroOrder();
		try (RegistryAvroSerializer<GenericRecord> serializer = new RegistryAvroSerializer<>()) {
			serializer.configure(refusing, false);
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> serializer.serialize("orders", order))
				.withMessageContaining("rule 'encryptPii'");
		}
		Map<String, Object> ignoring = Map.of("schema.registry.url", this.registry.url(), "use.latest.version", true,
				"lockstep.registry.ignored.rules", "checkId, encryptPii");
		try (RegistryAvroSerializer<GenericRecord> serializer = new RegistryAvroSerializer<>();
				RegistryAvroDeserializer<Object> deserializer = new RegistryAvroDeserializer<>()) {
			serializer.configure(ignoring, false);
			deserializer.configure(Map.of("schema.registry.url", this.registry.url(),
					"lockstep.registry.ignored.rules", List.of("ENCRYPT")), false);
			assertThat(deserializer.deserialize("orders", serializer.serialize("orders", order)))
				.hasToString(order.toString());
		}
	}

	private RegistryClient client(String... ignoredRules) {
		return RegistryClient.builder(this.registry.url()).ignoredRules(Set.of(ignoredRules)).build();
	}

	private static String rules(String list, String rule) {
		return "{\"" + list + "\": [" + rule + "]}";
	}

	private static String rule(String name, String type, String mode, boolean disabled) {
		return "{\"name\": \"" + name + "\", \"kind\": \"TRANSFORM\", \"mode\": \"" + mode + "\", \"type\": \"" + type
				+ "\", \"tags\": [\"PII\"], \"params\": {\"encrypt.kek.name\": \"kek1\"}"
				+ (disabled ? ", \"disabled\": true" : "") + "}";
	}

	private static String body(String schema, String metadata, String ruleSet) throws IOException {
		var body = JSON.createObjectNode().put("schema", schema);
		if (metadata != null) {
			body.set("metadata", JSON.readTree(metadata));
		}
		if (ruleSet != null) {
			body.set("ruleSet", JSON.readTree(ruleSet));
		}
		return body.toString();
	}

	private JsonNode post(String path, String body) {
		return new RegistryRequests(this.registry.url()).post(path, body);
	}

	private JsonNode get(String path) {
		return new RegistryRequests(this.registry.url()).get(path);
	}

	/**
	 * Each registry format: its schema registered with a rule set, a message written with
	 * it (by a writer that ignores every rule, as a Confluent client running them would
	 * write it), and read back.
	 */
	enum Format {

		AVRO {
			@Override
			void register(EmbeddedSchemaRegistry registry, String ruleSet) {
				registry.register("orders-value",
						new RegistrySchema(RegistrySchema.AVRO, AVRO_ORDER, List.of(), null, ruleSet));
			}

			@Override
			byte[] write(RegistryClient client) {
				return AvroSerializer.generic(client, "orders-value", avroOrder().getSchema(), SchemaIdSource.LOOKUP,
						WireFormat.DEFAULT_MAX_BYTES).serialize(avroOrder());
			}

			@Override
			Object read(RegistryClient client, byte[] message) {
				return AvroDeserializer.generic(client, WireFormat.DEFAULT_MAX_BYTES, 8).deserialize(message);
			}
		},

		JSON_SCHEMA {
			@Override
			void register(EmbeddedSchemaRegistry registry, String ruleSet) {
				registry.register("orders-value",
						new RegistrySchema(RegistrySchema.JSON, JSON_ORDER, List.of(), null, ruleSet));
			}

			@Override
			byte[] write(RegistryClient client) {
				return JsonSchemaSerializer.of(client, "orders-value", JsonSchema.parse(JSON_ORDER), JSON,
						SchemaIdSource.LOOKUP, true, WireFormat.DEFAULT_MAX_BYTES)
					.serialize(Map.of("id", "o-1", "ssn", "123-45-6789"));
			}

			@Override
			Object read(RegistryClient client, byte[] message) {
				return JsonSchemaDeserializer.of(client, JsonNode.class, JSON, true, WireFormat.DEFAULT_MAX_BYTES, 8)
					.deserialize(message);
			}
		},

		PROTOBUF {
			@Override
			void register(EmbeddedSchemaRegistry registry, String ruleSet) {
				RegistrySchema schema = ProtobufSchema.of(Order.getDescriptor()).registrySchema();
				registry.register("orders-value", new RegistrySchema(schema.type(), schema.text(), schema.references(),
						null, ruleSet));
			}

			@Override
			byte[] write(RegistryClient client) {
				return ProtobufSerializer.<Order>of(client, "orders-value", Order.getDescriptor(),
						SchemaIdSource.LOOKUP, WireFormat.DEFAULT_MAX_BYTES)
					.serialize(Order.newBuilder().setOrderId("o-1").build());
			}

			@Override
			Object read(RegistryClient client, byte[] message) {
				DynamicMessage read = ProtobufDeserializer.dynamic(client, WireFormat.DEFAULT_MAX_BYTES, 8)
					.deserialize(message);
				return read;
			}
		};

		abstract void register(EmbeddedSchemaRegistry registry, String ruleSet);

		abstract byte[] write(RegistryClient client);

		abstract Object read(RegistryClient client, byte[] message);

		// Registered with the rule set, written by a client that ignores every rule in it.
		byte[] written(EmbeddedSchemaRegistry registry, String ruleSet) {
			register(registry, ruleSet);
			return write(RegistryClient.builder(registry.url())
				.ignoredRules(List.of("encryptPii", "checkOnWrite", "switchedOff", "mustHaveId", "encryptPayload",
						"renameField"))
				.build());
		}

		static GenericRecord avroOrder() {
			GenericRecord order = new GenericData.Record(new Schema.Parser().parse(AVRO_ORDER));
			order.put("id", "o-1");
			order.put("ssn", "123-45-6789");
			return order;
		}

	}

}
