package dev.lockstep.registry.protobuf;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.protobuf.test.Order;
import dev.lockstep.registry.server.EmbeddedSchemaRegistry;
import dev.lockstep.test.registry.RegistryRequests;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Protobuf schemas in both of the registry's encodings: the embedded registry takes a
 * schema as {@code .proto} text or as a base64 serialized descriptor as one schema (by its
 * meaning, not its text) and serves {@code format=serialized}; Lockstep's readers ask for
 * that format only for a text their parser cannot read.
 */
class ProtobufSerializedFormTests {

	private final String text = ProtobufSchema.of(Order.getDescriptor()).text();

	// As Confluent's clients register it: protoc's descriptor of the file.
	private final String serialized = Base64.getEncoder()
		.encodeToString(Order.getDescriptor().getFile().toProto().toByteArray());

	@Test
	void theEmbeddedRegistryTakesTextAndDescriptorOfOneFileAsOneSchema() {
		try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder().start()) {
			long id = registry.register("orders-value", new RegistrySchema(RegistrySchema.PROTOBUF, this.text));
			assertThat(registry.register("orders-value", new RegistrySchema(RegistrySchema.PROTOBUF, this.serialized)))
				.isEqualTo(id);
			RegistryClient client = RegistryClient.builder(registry.url()).build();
			assertThat(client.lookup("orders-value", new RegistrySchema(RegistrySchema.PROTOBUF, this.serialized)))
				.isEqualTo(id);
			String renamed = this.text.replace("string customer = 2;", "string buyer = 2;");
			assertThat(renamed).isNotEqualTo(this.text);
			assertThat(registry.register("orders-value", new RegistrySchema(RegistrySchema.PROTOBUF, renamed)))
				.isNotEqualTo(id);
		}
	}

	@Test
	void theEmbeddedRegistryServesAProtobufSchemaAsItsSerializedDescriptorWhenAsked() throws Exception {
		try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder().start()) {
			long id = registry.register("orders-value", new RegistrySchema(RegistrySchema.PROTOBUF, this.text));
			long avro = registry.register("other-value", new RegistrySchema(RegistrySchema.AVRO, "\"string\""));
			JsonNode asSerialized = get(registry, "/schemas/ids/" + id + "?format=serialized");
			FileDescriptorProto file = FileDescriptorProto
				.parseFrom(Base64.getDecoder().decode(asSerialized.path("schema").asText()));
			assertThat(file.getMessageTypeList()).extracting((type) -> type.getName()).contains("Envelope", "Order");
			assertThat(asSerialized.path("guid").asText()).isEqualTo(registry.guid(id).toString());
			assertThat(get(registry, "/subjects/orders-value/versions/1?format=serialized").path("schema").asText())
				.isEqualTo(asSerialized.path("schema").asText());
			assertThat(get(registry, "/schemas/ids/" + id).path("schema").asText()).isEqualTo(this.text);
			assertThat(get(registry, "/schemas/ids/" + avro + "?format=serialized").path("schema").asText())
				.isEqualTo("\"string\"");
		}
	}

	@Test
	void readersAskForTheSerializedFormOnlyForATextTheyCannotParse() throws Exception {
		try (TestSchemaRegistry registry = TestSchemaRegistry.start()) {
			RegistryClient client = RegistryClient.builder(registry.url()).build();
			// A text this reader's parser refuses (a construct it does not know), which the
			// registry's own parser serializes.
			long id = registry.register("orders-value", "PROTOBUF", this.text + "\nfuture_construct Unknown {}\n");
			byte[] message = WireFormat.frame(id, concat(new byte[] { 2, 2 },
					Order.newBuilder().setOrderId("o-1").build().toByteArray()), 1000);
			// The stored text first (as a reader's first request gets it), then the serialized form.
			assertThat(client.schema(id).text()).endsWith("future_construct Unknown {}\n");
			registry.respondNext(1, 200, Map.of(), ("{\"schemaType\": \"PROTOBUF\", \"schema\": \""
					+ this.serialized + "\"}").getBytes(StandardCharsets.UTF_8));
			ProtobufDeserializer<Order> reader = ProtobufDeserializer.specific(client, Order.getDefaultInstance(),
					WireFormat.DEFAULT_MAX_BYTES, 8);
			assertThat(reader.deserialize(message).getOrderId()).isEqualTo("o-1");
			assertThat(registry.lastRequestQuery()).isEqualTo("format=serialized");
			assertThat(registry.requestCount("GET /schemas/ids/" + id)).isEqualTo(2);
			// A registry that cannot serialize it either answers the same text: invalid data, named.
			client.clearCaches();
			assertThatExceptionOfType(InvalidDataException.class)
				.isThrownBy(() -> ProtobufDeserializer.specific(client, Order.getDefaultInstance(),
						WireFormat.DEFAULT_MAX_BYTES, 8).deserialize(message))
				.withMessageContaining("Writer schema " + id + ": Unexpected 'future_construct'");
			// One that refuses the format for good: invalid data too; one that fails: retried.
			client.clearCaches();
			assertThat(client.schema(id).text()).endsWith("future_construct Unknown {}\n");
			registry.failNext(1, 422, 42201);
			assertThatExceptionOfType(InvalidDataException.class)
				.isThrownBy(() -> ProtobufDeserializer.specific(client, Order.getDefaultInstance(),
						WireFormat.DEFAULT_MAX_BYTES, 8).deserialize(message))
				.withMessageContaining("Unexpected 'future_construct'")
				.withMessageContaining("the registry refused to serialize it");
			registry.failNext(3, 500, 50001);
			assertThatExceptionOfType(SerializationException.class)
				.isThrownBy(() -> ProtobufDeserializer.specific(client, Order.getDefaultInstance(),
						WireFormat.DEFAULT_MAX_BYTES, 8).deserialize(message))
				.isNotInstanceOf(InvalidDataException.class);
		}
	}

	@Test
	void twoTextsOrTwoDescriptorsAreOneSchemaOnlyWhenEqual() {
		try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder().start()) {
			String reserving = this.text.replace("string customer = 2;", "string customer = 2;\n  reserved 99;");
			assertThat(reserving).isNotEqualTo(this.text);
			long id = registry.register("orders-value", new RegistrySchema(RegistrySchema.PROTOBUF, this.text));
			// Lockstep prints both alike (it leaves reserved ranges out), yet they are two versions.
			assertThat(registry.register("orders-value", new RegistrySchema(RegistrySchema.PROTOBUF, reserving)))
				.isNotEqualTo(id);
		}
	}

	@Test
	void aReadableTextTakesOneRequest() {
		try (TestSchemaRegistry registry = TestSchemaRegistry.start()) {
			long id = registry.register("orders-value", "PROTOBUF", this.text);
			RegistryClient client = RegistryClient.builder(registry.url()).build();
			byte[] message = ProtobufSerializer.of(client, "orders-value", Order.getDescriptor())
				.serialize(Order.newBuilder().setOrderId("o-1").build());
			client.clearCaches();
			int before = registry.requestCount("GET /schemas/ids/" + id);
			assertThat(ProtobufDeserializer.specific(client, Order.getDefaultInstance(), WireFormat.DEFAULT_MAX_BYTES, 8)
				.deserialize(message)
				.getOrderId()).isEqualTo("o-1");
			assertThat(registry.requestCount("GET /schemas/ids/" + id)).isEqualTo(before + 1);
			assertThat(registry.lastRequestQuery()).isNull();
		}
	}

	private static byte[] concat(byte[] a, byte[] b) {
		byte[] all = Arrays.copyOf(a, a.length + b.length);
		System.arraycopy(b, 0, all, a.length, b.length);
		return all;
	}

	private static JsonNode get(EmbeddedSchemaRegistry registry, String path) {
		return new RegistryRequests(registry.url()).get(path);
	}

}
