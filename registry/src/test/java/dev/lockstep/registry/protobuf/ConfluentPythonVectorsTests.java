package dev.lockstep.registry.protobuf;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Message;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.SchemaIdSource;
import dev.lockstep.registry.SchemaReference;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.protobuf.test.Envelope;
import dev.lockstep.registry.protobuf.test.Order;
import dev.lockstep.registry.protobuf.test.invoice.Invoice;
import dev.lockstep.registry.protobuf.test.money.Money;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What Confluent's own Python client (confluent-kafka 1.7, Debian's) registered and wrote
 * for this module's test files, captured by {@code confluent-python/capture_vectors.py}
 * (its header says how) into {@code confluent-python/vectors.json}: read here without
 * Python. The live client runs in the starter's {@code ConfluentPythonClientTests}.
 */
class ConfluentPythonVectorsTests {

	private static final JsonNode VECTORS = vectors();

	private final TestSchemaRegistry registry = TestSchemaRegistry.start();

	private final RegistryClient client = RegistryClient.builder(this.registry.url()).retries(0).build();

	@AfterEach
	void stopRegistry() {
		this.registry.close();
	}

	@Test
	void lockstepRegistersTheDescriptorsConfluentsClientRegisters() {
		assertThat(registered("orders-value").path("schema").asText()).isEqualTo(base64(Order.getDescriptor()));
		assertThat(registered("lockstep/test/money.proto").path("schema").asText()).isEqualTo(base64(Money.getDescriptor()));
		long invoices = ProtobufSerializer.of(this.client, "invoices-value", Invoice.getDescriptor(),
				SchemaIdSource.AUTO_REGISTER, WireFormat.DEFAULT_MAX_BYTES).schemaId();
		RegistrySchema lockstep = this.client.schema(invoices);
		assertThat(lockstep.text()).isEqualTo(registered("invoices-value").path("schema").asText());
		assertThat(lockstep.references()).containsExactlyElementsOf(references(registered("invoices-value")));
		// Unlike 1.7, Lockstep registers no well-known type as a reference (skip.known.types).
		long orders = ProtobufSerializer.of(this.client, "orders-value", Order.getDescriptor(),
				SchemaIdSource.AUTO_REGISTER, WireFormat.DEFAULT_MAX_BYTES).schemaId();
		assertThat(this.client.schema(orders).text()).isEqualTo(registered("orders-value").path("schema").asText());
		assertThat(this.client.schema(orders).references()).isEmpty();
		assertThat(references(registered("orders-value"))).extracting(SchemaReference::name)
			.containsExactly("google/protobuf/timestamp.proto");
	}

	@Test
	void readsWhatConfluentsClientWroteAndRefusesItsDeprecatedIndexesByName() {
		for (JsonNode registration : VECTORS.path("registrations")) {
			assertThat(this.registry.register(registration.path("subject").asText(), new RegistrySchema(
					RegistrySchema.PROTOBUF, registration.path("schema").asText(), references(registration))))
				.isEqualTo(registration.path("id").asLong());
		}
		ProtobufDeserializer<Message> derived = ProtobufDeserializer.specificByWriterName(this.client,
				getClass().getClassLoader(), WireFormat.DEFAULT_MAX_BYTES, 8);
		assertThat(ProtobufDeserializer.specific(this.client, Envelope.getDefaultInstance(), WireFormat.DEFAULT_MAX_BYTES, 8)
			.deserialize(framed("lockstep.test.Envelope"))).isEqualTo(Envelope.newBuilder().setSource("web").build());
		assertThat(derived.deserialize(framed("lockstep.test.invoice.Invoice"))).isEqualTo(Invoice.newBuilder()
			.setId("i-1")
			.setTotal(Money.newBuilder().setCurrency("EUR").setCents(990))
			.build());
		// A look-up finds 1.7's registration, its well-known import a reference, in its third form.
		assertThat(ProtobufSerializer.of(this.client, "orders-value", Order.getDescriptor()).schemaId())
			.isEqualTo(registered("orders-value").path("id").asLong());
		assertThat(this.registry.requestCount("POST /subjects/orders-value")).isEqualTo(3);
		// 1.7 writes indexes other than [0] as unsigned varints: refused, the format named.
		for (String message : List.of("lockstep.test.Order", "lockstep.test.Order.Line")) {
			assertThatExceptionOfType(InvalidDataException.class).as(message)
				.isThrownBy(() -> derived.deserialize(framed(message)))
				.withMessageContaining("use.deprecated.format");
		}
	}

	// What Lockstep registers of a generated class's file.
	private static String base64(Descriptor message) {
		return ProtobufSchema.of(message).serializedRegistrySchema(List.of()).text();
	}

	private static JsonNode registered(String subject) {
		for (JsonNode registration : VECTORS.path("registrations")) {
			if (registration.path("subject").asText().equals(subject)) {
				return registration;
			}
		}
		throw new IllegalArgumentException("No registration of " + subject);
	}

	private static List<SchemaReference> references(JsonNode registration) {
		List<SchemaReference> references = new ArrayList<>();
		for (JsonNode reference : registration.path("references")) {
			references.add(new SchemaReference(reference.path("name").asText(), reference.path("subject").asText(),
					reference.path("version").asInt()));
		}
		return references;
	}

	private static byte[] framed(String message) {
		for (JsonNode record : VECTORS.path("records")) {
			if (record.path("message").asText().equals(message)) {
				return HexFormat.of().parseHex(record.path("framed").asText());
			}
		}
		throw new IllegalArgumentException("No record of " + message);
	}

	private static JsonNode vectors() {
		try (InputStream in = ConfluentPythonVectorsTests.class.getResourceAsStream("/confluent-python/vectors.json")) {
			return new ObjectMapper().readTree(in);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
