package dev.lockstep.registry;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.DynamicMessage;
import dev.lockstep.registry.avro.AvroDeserializer;
import dev.lockstep.registry.json.JsonSchemaDeserializer;
import dev.lockstep.registry.kafka.RegistryAvroDeserializer;
import dev.lockstep.registry.kafka.RegistryAvroSerializer;
import dev.lockstep.registry.kafka.RegistryJsonSchemaDeserializer;
import dev.lockstep.registry.kafka.RegistryJsonSchemaSerializer;
import dev.lockstep.registry.kafka.RegistryProtobufDeserializer;
import dev.lockstep.registry.kafka.RegistryProtobufSerializer;
import dev.lockstep.registry.protobuf.ProtobufDeserializer;
import dev.lockstep.registry.protobuf.ProtobufSchema;
import dev.lockstep.registry.protobuf.test.Order;
import dev.lockstep.registry.server.EmbeddedSchemaRegistry;
import dev.lockstep.test.registry.RegistryRequests;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Writer schemas named as Confluent Platform 8 names them: by GUID or id, in a
 * {@code __value_schema_id} / {@code __key_schema_id} header in front of a bare payload
 * (for Protobuf the header holds the message indexes too) or in the payload's prefix.
 * Vectors built by hand from the format, read by every format's codec and Kafka
 * deserializer through the embedded registry, which serves GUIDs.
 */
class SchemaIdHeaderTests {

	private static final ObjectMapper JSON = new ObjectMapper();

	private static final String AVRO_ORDER = """
			{"type": "record", "name": "Order", "namespace": "headers",
			 "fields": [{"name": "id", "type": "string"}, {"name": "cents", "type": "long"}]}""";

	private static final String JSON_ORDER = """
			{"$schema": "http://json-schema.org/draft-07/schema#", "title": "Order", "type": "object",
			 "properties": {"id": {"type": "string"}, "cents": {"type": "integer"}}, "required": ["id"]}""";

	// Order is the second message of its file: message indexes [1], zigzag varints 2, 2.
	private static final byte[] ORDER_INDEXES = { 2, 2 };

	private EmbeddedSchemaRegistry registry;

	@BeforeEach
	void startRegistry() {
		this.registry = EmbeddedSchemaRegistry.builder().start();
	}

	@AfterEach
	void stopRegistry() {
		this.registry.close();
	}

	@ParameterizedTest
	@EnumSource(Format.class)
	void aGuidInTheHeaderNamesTheWriterSchemaOfABarePayload(Format format) throws Exception {
		long id = format.register(this.registry);
		byte[] header = concat(guidBytes(guid(id)), format.indexes());
		assertThat(format.read(client(), header, format.datum())).hasToString(format.expected());
		assertThat(format.kafka(this.registry.url()).deserialize("orders", headers("__value_schema_id", header),
				format.datum()))
			.hasToString(format.expected());
	}

	@ParameterizedTest
	@EnumSource(Format.class)
	void anIdInTheHeaderAndAGuidInThePrefixAreReadToo(Format format) throws Exception {
		long id = format.register(this.registry);
		byte[] idHeader = concat(new byte[] { 0, 0, 0, 0, (byte) id }, format.indexes());
		assertThat(format.read(client(), idHeader, format.datum())).hasToString(format.expected());
		byte[] guidPrefixed = concat(guidBytes(guid(id)), format.indexes(), format.datum());
		assertThat(format.read(client(), null, guidPrefixed)).hasToString(format.expected());
		byte[] idPrefixed = concat(new byte[] { 0, 0, 0, 0, (byte) id }, format.indexes(), format.datum());
		assertThat(format.read(client(), null, idPrefixed)).hasToString(format.expected());
	}

	@ParameterizedTest
	@EnumSource(Format.class)
	void aKeysHeaderNamesTheKeysSchemaAndAHeaderWithoutAValueLeavesThePrefix(Format format) throws Exception {
		long id = format.register(this.registry);
		byte[] framed = concat(new byte[] { 0, 0, 0, 0, (byte) id }, format.indexes(), format.datum());
		RecordHeaders headers = headers("__key_schema_id", concat(guidBytes(guid(id)), format.indexes()));
		headers.add("__value_schema_id", null);
		Deserializer<Object> values = format.kafka(this.registry.url());
		assertThat(values.deserialize("orders", headers, framed)).hasToString(format.expected());
		Deserializer<Object> keys = format.kafkaKeys(this.registry.url());
		assertThat(keys.deserialize("orders", headers, format.datum())).hasToString(format.expected());
	}

	@ParameterizedTest
	@EnumSource(Format.class)
	void aSerializerInHeaderModeNamesTheSchemaByGuidInTheHeaderAndWritesABarePayload(Format format)
			throws Exception {
		long id = format.register(this.registry);
		RecordHeaders headers = headers("__value_schema_id", new byte[] { 0, 0, 0, 0, 99 });
		headers.add("__key_schema_id", new byte[] { 0, 0, 0, 0, 98 });
		byte[] payload;
		try (Serializer<Object> serializer = format.serializer()) {
			serializer.configure(Map.of("schema.registry.url", this.registry.url(), "use.latest.version", true,
					"value.schema.id.serializer", "io.confluent.kafka.serializers.schema.id.HeaderSchemaIdSerializer"),
					false);
			payload = serializer.serialize("orders", headers, format.value());
			// A tombstone names no schema: a stale header goes, none comes.
			RecordHeaders tombstone = headers("__value_schema_id", new byte[] { 0, 0, 0, 0, 99 });
			assertThat(serializer.serialize("orders", tombstone, null)).isNull();
			assertThat(tombstone.lastHeader("__value_schema_id")).isNull();
		}
		assertThat(payload).isEqualTo(format.datum());
		assertThat(headers.headers("__value_schema_id")).singleElement()
			.satisfies((header) -> assertThat(header.value()).isEqualTo(concat(guidBytes(guid(id)), format.indexes())));
		assertThat(headers.lastHeader("__key_schema_id").value()).containsExactly(0, 0, 0, 0, 98);
		assertThat(format.kafka(this.registry.url()).deserialize("orders", headers, payload))
			.hasToString(format.expected());
	}

	@Test
	void headerModeWritesKeysTooAndARecordSentAgainKeepsItsHeader() throws Exception {
		long id = Format.AVRO.register(this.registry);
		this.registry.register("orders-key", new RegistrySchema(RegistrySchema.AVRO, AVRO_ORDER));
		RecordHeaders headers = new RecordHeaders();
		byte[] payload;
		try (Serializer<Object> serializer = Format.AVRO.serializer()) {
			serializer.configure(Map.of("schema.registry.url", this.registry.url(), "use.latest.version", true,
					"key.schema.id.serializer", "HeaderSchemaIdSerializer"), true);
			payload = serializer.serialize("orders", headers, Format.AVRO.value());
			// KafkaProducer makes a sent record's headers read-only; sending it again is fine.
			headers.setReadOnly();
			assertThat(serializer.serialize("orders", headers, Format.AVRO.value())).isEqualTo(payload);
		}
		assertThat(payload).isEqualTo(Format.AVRO.datum());
		assertThat(headers.lastHeader("__key_schema_id").value()).isEqualTo(guidBytes(guid(id)));
		assertThat(headers.lastHeader("__value_schema_id")).isNull();
		assertThat(Format.AVRO.kafkaKeys(this.registry.url()).deserialize("orders", headers, payload))
			.hasToString(Format.AVRO.expected());
	}

	@ParameterizedTest
	@EnumSource(value = Format.class, names = { "AVRO", "JSON_SCHEMA" })
	void bytesAfterTheIdInTheHeaderAreInvalidDataWhereNoIndexesBelong(Format format) throws Exception {
		long id = format.register(this.registry);
		byte[] header = concat(guidBytes(guid(id)), ORDER_INDEXES);
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> format.read(client(), header, format.datum()))
			.withMessageContaining("2 bytes after the schema's id");
	}

	@Test
	void headerModeNeedsARegistryThatNamesSchemasByGuid() throws Exception {
		TestSchemaRegistry withoutGuids = TestSchemaRegistry.start();
		RegistryClient client = RegistryClient.builder(withoutGuids.url()).build();
		try (withoutGuids; RegistryAvroSerializer<Object> serializer = new RegistryAvroSerializer<>(client)) {
			long id = withoutGuids.register("orders-value", new Schema.Parser().parse(AVRO_ORDER));
			serializer.configure(Map.of("schema.registry.url", withoutGuids.url(), "use.latest.version", true,
					"value.schema.id.serializer", "HeaderSchemaIdSerializer"), false);
			// The schema's text as a registry before Confluent Platform 8 answers it: no guid.
			withoutGuids.respondNext(1, 200, Map.of(),
					("{\"schema\": " + JSON.writeValueAsString(AVRO_ORDER) + "}").getBytes(StandardCharsets.UTF_8));
			assertThat(client.schema(id).text()).isEqualTo(AVRO_ORDER);
			Object order = Format.AVRO.value();
			assertThat(serializer.serialize("orders", order)).isNotEmpty();
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> serializer.serialize("orders", new RecordHeaders(), order))
				.withMessageContaining("names no GUID for schema id " + id);
			// That answer is kept: the registry is not asked again for each record.
			assertThat(withoutGuids.requestCount("GET /schemas/ids/" + id)).isOne();
		}
	}

	@Test
	void aSerializerRemovesTheSchemaIdHeaderItsPrefixWouldContradict() {
		long id = Format.AVRO.register(this.registry);
		RecordHeaders headers = headers("__value_schema_id", guidBytes(UUID.randomUUID()));
		headers.add("__key_schema_id", new byte[] { 0, 0, 0, 0, 9 });
		headers.add("source", new byte[] { 1 });
		try (RegistryAvroSerializer<GenericRecord> serializer = new RegistryAvroSerializer<>()) {
			serializer.configure(Map.of("schema.registry.url", this.registry.url(), "use.latest.version", true), false);
			GenericRecord order = new GenericData.Record(new Schema.Parser().parse(AVRO_ORDER));
			order.put("id", "o-1");
			order.put("cents", 1L);
			byte[] framed = serializer.serialize("orders", headers, order);
			assertThat(WireFormat.unframe(framed, 100).schemaId()).isEqualTo(id);
			// A record sent before has read-only headers, without a schema id header.
			RecordHeaders sentBefore = new RecordHeaders();
			sentBefore.setReadOnly();
			assertThat(serializer.serialize("orders", sentBefore, order)).isEqualTo(framed);
		}
		assertThat(headers.lastHeader("__value_schema_id")).isNull();
		assertThat(headers.lastHeader("__key_schema_id").value()).containsExactly(0, 0, 0, 0, 9);
		assertThat(headers.lastHeader("source")).isNotNull();
	}

	@Test
	void aGuidTheRegistryDoesNotKnowIsInvalidDataOnlyAfterRepeatedAnswers() {
		byte[] header = guidBytes(UUID.fromString("00112233-4455-6677-8899-aabbccddeeff"));
		RegistryClient client = client();
		AvroDeserializer<GenericRecord> reader = AvroDeserializer.generic(client, WireFormat.DEFAULT_MAX_BYTES, 8);
		for (int answer = 1; answer < 5; answer++) {
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> reader.deserialize(header, new byte[] { 2 }))
				.isNotInstanceOf(InvalidDataException.class)
				.withMessageContaining("Schema id 00112233-4455-6677-8899-aabbccddeeff is unknown to the registry");
		}
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> reader.deserialize(header, new byte[] { 2 }))
			.withMessageContaining("Unknown schema id 00112233-4455-6677-8899-aabbccddeeff");
	}

	@Test
	void theEmbeddedRegistryServesEachSchemaByAStableGuid(@TempDir Path data) throws Exception {
		this.registry.close();
		this.registry = EmbeddedSchemaRegistry.builder().dataDirectory(data).start();
		long id = this.registry.register("orders-value", new RegistrySchema(RegistrySchema.AVRO, AVRO_ORDER));
		long other = this.registry.register("orders-value", new RegistrySchema(RegistrySchema.AVRO, AVRO_ORDER,
				List.of(), null, "{\"domainRules\": []}"));
		UUID guid = guid(id);
		assertThat(guid(other)).isNotEqualTo(guid);
		assertThat(this.registry.guid(id)).isEqualTo(guid);
		JsonNode byGuid = get("/schemas/guids/" + guid);
		assertThat(byGuid.path("schema").asText()).isEqualTo(AVRO_ORDER);
		assertThat(byGuid.path("guid").asText()).isEqualTo(guid.toString());
		assertThat(get("/subjects/orders-value/versions/1").path("guid").asText()).isEqualTo(guid.toString());
		this.registry.close();
		this.registry = EmbeddedSchemaRegistry.builder().dataDirectory(data).start();
		assertThat(guid(id)).isEqualTo(guid);
		HttpResponse<String> unknown = new RegistryRequests(this.registry.url()).send("GET",
				"/schemas/guids/00112233-4455-6677-8899-aabbccddeeff", null);
		assertThat(unknown.statusCode()).isEqualTo(404);
		assertThat(unknown.body()).contains("40403");
	}

	private RegistryClient client() {
		return RegistryClient.builder(this.registry.url()).build();
	}

	private UUID guid(long id) throws Exception {
		return UUID.fromString(get("/schemas/ids/" + id).path("guid").asText());
	}

	private JsonNode get(String path) {
		return new RegistryRequests(this.registry.url()).get(path);
	}

	private static byte[] guidBytes(UUID guid) {
		return ByteBuffer.allocate(17)
			.put((byte) 1)
			.putLong(guid.getMostSignificantBits())
			.putLong(guid.getLeastSignificantBits())
			.array();
	}

	private static RecordHeaders headers(String name, byte[] value) {
		RecordHeaders headers = new RecordHeaders();
		headers.add(name, value);
		return headers;
	}

	private static byte[] concat(byte[]... parts) {
		byte[] all = new byte[Arrays.stream(parts).mapToInt((part) -> part.length).sum()];
		int at = 0;
		for (byte[] part : parts) {
			System.arraycopy(part, 0, all, at, part.length);
			at += part.length;
		}
		return all;
	}

	/**
	 * Each registry format: its schema, a bare datum of it, and its readers.
	 */
	enum Format {

		AVRO {
			@Override
			long register(EmbeddedSchemaRegistry registry) {
				return registry.register("orders-value", new RegistrySchema(RegistrySchema.AVRO, AVRO_ORDER));
			}

			@Override
			byte[] datum() throws Exception {
				GenericRecord order = (GenericRecord) value();
				ByteArrayOutputStream out = new ByteArrayOutputStream();
				BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
				new GenericDatumWriter<GenericRecord>(order.getSchema()).write(order, encoder);
				encoder.flush();
				return out.toByteArray();
			}

			@Override
			String expected() {
				return "{\"id\": \"o-1\", \"cents\": 1250}";
			}

			@Override
			Object read(RegistryClient client, byte[] header, byte[] message) {
				return AvroDeserializer.generic(client, WireFormat.DEFAULT_MAX_BYTES, 8).deserialize(header, message);
			}

			@Override
			Deserializer<Object> deserializer() {
				return new RegistryAvroDeserializer<>();
			}

			@Override
			Serializer<Object> serializer() {
				return new RegistryAvroSerializer<>();
			}

			@Override
			Object value() {
				GenericRecord order = new GenericData.Record(new Schema.Parser().parse(AVRO_ORDER));
				order.put("id", "o-1");
				order.put("cents", 1250L);
				return order;
			}
		},

		JSON_SCHEMA {
			@Override
			long register(EmbeddedSchemaRegistry registry) {
				return registry.register("orders-value", new RegistrySchema(RegistrySchema.JSON, JSON_ORDER));
			}

			@Override
			byte[] datum() {
				return "{\"id\":\"o-1\",\"cents\":1250}".getBytes(StandardCharsets.UTF_8);
			}

			@Override
			String expected() {
				return "{\"id\":\"o-1\",\"cents\":1250}";
			}

			@Override
			Object read(RegistryClient client, byte[] header, byte[] message) {
				return JsonSchemaDeserializer.of(client, JsonNode.class, JSON, true, WireFormat.DEFAULT_MAX_BYTES, 8)
					.deserialize(header, message);
			}

			@Override
			Deserializer<Object> deserializer() {
				return new RegistryJsonSchemaDeserializer<>();
			}

			@Override
			Serializer<Object> serializer() {
				return new RegistryJsonSchemaSerializer<>();
			}

			@Override
			Object value() throws Exception {
				return JSON.readTree("{\"id\":\"o-1\",\"cents\":1250}");
			}
		},

		PROTOBUF {
			@Override
			long register(EmbeddedSchemaRegistry registry) {
				return registry.register("orders-value", ProtobufSchema.of(Order.getDescriptor()).registrySchema());
			}

			@Override
			byte[] indexes() {
				return ORDER_INDEXES;
			}

			@Override
			byte[] datum() {
				return Order.newBuilder().setOrderId("o-1").setAmountCents(1250).build().toByteArray();
			}

			@Override
			String expected() {
				return Order.newBuilder().setOrderId("o-1").setAmountCents(1250).build().toString();
			}

			@Override
			Object read(RegistryClient client, byte[] header, byte[] message) {
				DynamicMessage read = ProtobufDeserializer.dynamic(client, WireFormat.DEFAULT_MAX_BYTES, 8)
					.deserialize(header, message);
				return read;
			}

			@Override
			@SuppressWarnings({ "unchecked", "rawtypes" })
			Deserializer<Object> deserializer() {
				return (Deserializer) new RegistryProtobufDeserializer<>();
			}

			@Override
			@SuppressWarnings({ "unchecked", "rawtypes" })
			Serializer<Object> serializer() {
				return (Serializer) new RegistryProtobufSerializer<>();
			}

			@Override
			Object value() {
				return Order.newBuilder().setOrderId("o-1").setAmountCents(1250).build();
			}
		};

		abstract long register(EmbeddedSchemaRegistry registry);

		byte[] indexes() {
			return new byte[0];
		}

		abstract byte[] datum() throws Exception;

		abstract String expected();

		abstract Object read(RegistryClient client, byte[] header, byte[] message);

		abstract Deserializer<Object> deserializer();

		abstract Serializer<Object> serializer();

		abstract Object value() throws Exception;

		Deserializer<Object> kafka(String url) {
			Deserializer<Object> deserializer = deserializer();
			deserializer.configure(Map.of("schema.registry.url", url), false);
			return deserializer;
		}

		Deserializer<Object> kafkaKeys(String url) {
			Deserializer<Object> deserializer = deserializer();
			deserializer.configure(Map.of("schema.registry.url", url), true);
			return deserializer;
		}

	}

}
