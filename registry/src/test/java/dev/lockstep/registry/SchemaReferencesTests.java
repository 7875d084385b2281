package dev.lockstep.registry;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.DynamicMessage;
import dev.lockstep.registry.avro.AvroDeserializer;
import dev.lockstep.registry.json.JsonSchemaDeserializer;
import dev.lockstep.registry.protobuf.ProtobufDeserializer;
import dev.lockstep.registry.protobuf.ProtobufSerializer;
import dev.lockstep.registry.protobuf.test.invoice.Invoice;
import dev.lockstep.registry.protobuf.test.money.Money;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Writer schemas with references, in each format: the referenced subjects' versions
 * fetched (once), the schema read with them, and references that can never resolve are
 * invalid data.
 */
class SchemaReferencesTests {

	private static final String MONEY = """
			{"type": "record", "name": "Money", "namespace": "shop",
			 "fields": [{"name": "cents", "type": "long"}]}""";

	private static final String ORDER = """
			{"type": "record", "name": "Order", "namespace": "shop",
			 "fields": [{"name": "id", "type": "string"}, {"name": "total", "type": "shop.Money"}]}""";

	private final TestSchemaRegistry registry = TestSchemaRegistry.start();

	private final RegistryClient client = RegistryClient.builder(this.registry.url()).retries(0).build();

	@AfterEach
	void stopRegistry() {
		this.registry.close();
	}

	@Test
	void avroNamedTypesOfOtherSubjects() throws Exception {
		this.registry.register("money", "AVRO", MONEY);
		long id = this.client.register("orders-value", new RegistrySchema(RegistrySchema.AVRO, ORDER,
				List.of(new SchemaReference("shop.Money", "money", 1))));
		Schema.Parser parser = new Schema.Parser();
		parser.parse(MONEY);
		Schema order = parser.parse(ORDER);
		GenericRecord total = new GenericData.Record(order.getField("total").schema());
		total.put("cents", 1250L);
		GenericRecord value = new GenericData.Record(order);
		value.put("id", "o-1");
		value.put("total", total);
		java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
		out.write(new byte[] { 0, 0, 0, 0, (byte) id });
		BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
		new GenericDatumWriter<GenericRecord>(order).write(value, encoder);
		encoder.flush();
		GenericRecord read = (GenericRecord) AvroDeserializer.generic(this.client, WireFormat.DEFAULT_MAX_BYTES, 8)
			.deserialize(out.toByteArray());
		assertThat(read.get("id").toString()).isEqualTo("o-1");
		assertThat(((GenericRecord) read.get("total")).get("cents")).isEqualTo(1250L);
		assertThat(this.registry.requestCount("GET /subjects/money/versions/1")).isEqualTo(1);
	}

	@Test
	void protobufImportsRegisteredAndReadAsReferences() {
		Invoice invoice = Invoice.newBuilder().setId("i-1")
			.setTotal(Money.newBuilder().setCurrency("EUR").setCents(990))
			.build();
		ProtobufSerializer<Invoice> serializer = ProtobufSerializer.of(this.client, "invoices-value",
				Invoice.getDescriptor(), SchemaIdSource.AUTO_REGISTER, WireFormat.DEFAULT_MAX_BYTES);
		byte[] message = serializer.serialize(invoice);
		RegistrySchema written = this.client.schema(serializer.schemaId());
		assertThat(written.references())
			.containsExactly(new SchemaReference("lockstep/test/money.proto", "lockstep/test/money.proto", 1));
		// Registered as Confluent's clients register it: each file's serialized descriptor.
		assertThat(written.text())
			.isEqualTo(Base64.getEncoder().encodeToString(Invoice.getDescriptor().getFile().toProto().toByteArray()));
		assertThat(this.client.latestSubjectVersion("lockstep/test/money.proto").schema().text())
			.isEqualTo(Base64.getEncoder().encodeToString(Money.getDescriptor().getFile().toProto().toByteArray()));
		assertThat(ProtobufDeserializer.specific(this.client, Invoice.getDefaultInstance(),
				WireFormat.DEFAULT_MAX_BYTES, 8).deserialize(message)).isEqualTo(invoice);
		DynamicMessage dynamic = ProtobufDeserializer.dynamic(this.client, WireFormat.DEFAULT_MAX_BYTES, 8)
			.deserialize(message);
		assertThat(dynamic.toByteArray()).isEqualTo(invoice.toByteArray());
		// Looked up, not registered, the second time: the same id.
		assertThat(ProtobufSerializer.of(this.client, "invoices-value", Invoice.getDescriptor()).schemaId())
			.isEqualTo(serializer.schemaId());
	}

	@Test
	void jsonRefsToOtherSubjects() throws Exception {
		this.registry.register("money-json", "JSON", "{\"type\": \"object\", \"properties\": {\"cents\": "
				+ "{\"type\": \"integer\"}}, \"required\": [\"cents\"]}");
		long id = this.client.register("orders-json-value", new RegistrySchema(RegistrySchema.JSON,
				"{\"type\": \"object\", \"properties\": {\"total\": {\"$ref\": \"money.json\"}}}",
				List.of(new SchemaReference("money.json", "money-json", 1))));
		JsonSchemaDeserializer<JsonNode> deserializer = JsonSchemaDeserializer.of(this.client, JsonNode.class,
				new ObjectMapper());
		assertThat(deserializer.deserialize(json(id, "{\"total\": {\"cents\": 5}}")).path("total").path("cents")
			.intValue()).isEqualTo(5);
		// The referenced schema is applied: a total without cents is refused.
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> deserializer.deserialize(json(id, "{\"total\": {}}")))
			.withMessageContaining("cents");
	}

	@Test
	void referencesThatCannotResolveAreInvalidData() {
		long missing = this.client.register("orders-value", new RegistrySchema(RegistrySchema.AVRO, ORDER,
				List.of(new SchemaReference("shop.Money", "money", 3))));
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> AvroDeserializer.generic(this.client, WireFormat.DEFAULT_MAX_BYTES, 8)
				.deserialize(new byte[] { 0, 0, 0, 0, (byte) missing, 2, 'x' }))
			.withMessageContaining("names version 3 of subject money");
		this.registry.register("a", "PROTOBUF", "syntax = \"proto3\"; import \"b.proto\"; message A {}");
		long cycle = this.client.register("b", new RegistrySchema(RegistrySchema.PROTOBUF,
				"syntax = \"proto3\"; import \"a.proto\"; message B {}", List.of(new SchemaReference("a.proto", "b", 1))));
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> ProtobufDeserializer.dynamic(this.client, WireFormat.DEFAULT_MAX_BYTES, 8)
				.deserialize(new byte[] { 0, 0, 0, 0, (byte) cycle, 0 }))
			.withMessageContaining("cycle");
	}

	private static byte[] json(long id, String json) {
		return WireFormat.frame(id, json.getBytes(StandardCharsets.UTF_8), 1000);
	}

}
