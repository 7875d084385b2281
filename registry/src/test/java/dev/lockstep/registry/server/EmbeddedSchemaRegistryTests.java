package dev.lockstep.registry.server;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Base64;

import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.protobuf.ProtobufSchema;
import dev.lockstep.registry.protobuf.test.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The development registry over HTTP, as Lockstep's client sees it: compatibility checks
 * per format and level, schemas kept in a directory between runs, references, loopback
 * only.
 */
class EmbeddedSchemaRegistryTests {

	private static final String ORDER_V1 = """
			{"type": "record", "name": "Order", "fields": [{"name": "id", "type": "long"}]}""";

	private static final String ORDER_WITH_DEFAULT = """
			{"type": "record", "name": "Order", "fields": [{"name": "id", "type": "long"},
			 {"name": "status", "type": "string", "default": "NEW"}]}""";

	private static final String ORDER_WITHOUT_DEFAULT = """
			{"type": "record", "name": "Order", "fields": [{"name": "id", "type": "long"},
			 {"name": "status", "type": "string"}]}""";

	@Test
	void checksAvroEvolutionBackwardByDefault() {
		try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder().start()) {
			RegistryClient client = client(registry);
			assertThat(registry.url()).startsWith("http://127.0.0.1:");
			assertThat(client.ping()).isEqualTo("BACKWARD");
			long v1 = client.register("orders-value", avro(ORDER_V1));
			assertThatExceptionOfType(RegistryException.class)
				.isThrownBy(() -> client.register("orders-value", avro(ORDER_WITHOUT_DEFAULT)))
				.satisfies((ex) -> assertThat(ex.statusCode()).isEqualTo(409))
				.withMessageContaining("status");
			long v2 = client.register("orders-value", avro(ORDER_WITH_DEFAULT));
			assertThat(v2).isNotEqualTo(v1);
			assertThat(client.register("orders-value", avro(ORDER_WITH_DEFAULT))).isEqualTo(v2);
			// The same schema under another subject keeps its id.
			assertThat(client.register("other-value", avro(ORDER_V1))).isEqualTo(v1);
			assertThat(client.latestSubjectVersion("orders-value").version()).isEqualTo(2);
		}
	}

	@Test
	void checksEachLevelInItsDirection() {
		try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder().start()) {
			RegistryClient client = client(registry);
			// FORWARD: the earlier schema must read the new one's data; dropping a field it
			// needs (no default) is refused, though BACKWARD would take it.
			client.register("forward", avro(ORDER_WITHOUT_DEFAULT));
			registry.compatibility("forward", Compatibility.FORWARD);
			assertIncompatible(client, "forward", avro(ORDER_V1), "read by version 1");
			registry.compatibility("forward", Compatibility.FULL);
			assertIncompatible(client, "forward", avro(ORDER_V1), "read by version 1");
			// FULL also refuses what FORWARD alone takes: a new field without a default.
			client.register("full", avro(ORDER_V1));
			registry.compatibility("full", Compatibility.FULL);
			assertIncompatible(client, "full", avro(ORDER_WITHOUT_DEFAULT), "reading version 1");
			// Transitive: checked against every version, not only the latest.
			client.register("transitive", avro(ORDER_V1));
			client.register("transitive", avro(ORDER_WITH_DEFAULT));
			registry.compatibility("transitive", Compatibility.BACKWARD_TRANSITIVE);
			assertIncompatible(client, "transitive", avro(ORDER_WITHOUT_DEFAULT), "reading version 1");
			registry.compatibility("transitive", Compatibility.BACKWARD);
			assertThat(client.register("transitive", avro(ORDER_WITHOUT_DEFAULT))).isPositive();
		}
	}

	@Test
	void checksProtobufAndJsonSchemaEvolution() {
		try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder().start()) {
			RegistryClient client = client(registry);
			String order = ProtobufSchema.of(Order.getDescriptor()).text();
			client.register("proto-value", new RegistrySchema(RegistrySchema.PROTOBUF, order));
			assertThatExceptionOfType(RegistryException.class)
				.isThrownBy(() -> client.register("proto-value", new RegistrySchema(RegistrySchema.PROTOBUF,
						order.replace("int64 amount_cents = 3;", "string amount_cents = 3;"))))
				.satisfies((ex) -> assertThat(ex.statusCode()).isEqualTo(409))
				.withMessageContaining("lockstep.test.Order.amount_cents (field 3) was int64, now string");
			client.register("proto-value", new RegistrySchema(RegistrySchema.PROTOBUF,
					order.replace("int64 amount_cents = 3;", "int64 amount_cents = 3;\n  string channel = 30;")));
			assertIncompatible(client, "proto-value", new RegistrySchema(RegistrySchema.PROTOBUF,
					order.replace("  string customer = 2;", "  repeated string customer = 2;")),
					"was string, now repeated string");
			String person = "{\"type\": \"object\", \"properties\": {\"name\": {\"type\": \"string\"}}}";
			client.register("json-value", RegistrySchema.json(person));
			assertIncompatible(client, "json-value", RegistrySchema.json(
					"{\"type\": \"object\", \"properties\": {}, \"additionalProperties\": false}"),
					"refuses property \"name\"");
			assertThatExceptionOfType(RegistryException.class)
				.isThrownBy(() -> client.register("json-value", RegistrySchema.json(person.replace("}}}",
						"}}, \"required\": [\"name\"]}"))))
				.withMessageContaining("requires \"name\"");
			assertThatExceptionOfType(RegistryException.class)
				.isThrownBy(() -> client.register("json-value", RegistrySchema.json(person.replace("\"string\"",
						"\"integer\""))))
				.withMessageContaining("type \"string\" became \"integer\"");
			assertThatExceptionOfType(RegistryException.class)
				.isThrownBy(() -> client.register("json-value", RegistrySchema.json("{\"type\": ")))
				.satisfies((ex) -> assertThat(ex.statusCode()).isEqualTo(422));
		}
	}

	@Test
	void acceptsAProtobufSchemaAsTheSerializedDescriptorConfluentsClientsRegister() {
		try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder().start()) {
			RegistryClient client = client(registry);
			String serialized = Base64.getEncoder()
				.encodeToString(Order.getDescriptor().getFile().toProto().toByteArray());
			long id = client.register("proto-value", new RegistrySchema(RegistrySchema.PROTOBUF, serialized));
			assertThat(client.schema(id).text()).isEqualTo(serialized);
			// Checked against it as against text: a changed field type is refused.
			assertThatExceptionOfType(RegistryException.class)
				.isThrownBy(() -> client.register("proto-value", new RegistrySchema(RegistrySchema.PROTOBUF,
						ProtobufSchema.of(Order.getDescriptor())
							.text()
							.replace("int64 amount_cents = 3;", "string amount_cents = 3;"))))
				.satisfies((ex) -> assertThat(ex.statusCode()).isEqualTo(409));
		}
	}

	@Test
	void aSubjectsLevelIsItsOwn() throws Exception {
		try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder().start()) {
			RegistryClient client = client(registry);
			client.register("orders-value", avro(ORDER_V1));
			HttpResponse<String> put = send(registry, "PUT", "/config/orders-value", "{\"compatibility\": \"NONE\"}");
			assertThat(put.statusCode()).isEqualTo(200);
			assertThat(send(registry, "GET", "/config/orders-value", null).body()).contains("\"NONE\"");
			assertThat(client.ping()).isEqualTo("BACKWARD");
			client.register("orders-value", avro(ORDER_WITHOUT_DEFAULT));
			registry.compatibility("orders-value", Compatibility.FORWARD_TRANSITIVE);
			assertThat(send(registry, "PUT", "/config", "{\"compatibility\": \"SOMETIMES\"}").body())
				.contains("42203");
		}
	}

	@Test
	void keepsItsSchemasInItsDirectoryBetweenRuns(@TempDir Path data) {
		long id;
		try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder().dataDirectory(data).start()) {
			id = client(registry).register("orders-value", avro(ORDER_V1));
			client(registry).register("json-value", RegistrySchema.json("{\"type\": \"string\"}"));
			registry.compatibility("orders-value", Compatibility.NONE);
			assertThatIllegalStateException()
				.isThrownBy(() -> EmbeddedSchemaRegistry.builder().dataDirectory(data).start())
				.withMessageContaining("is in use by another registry of this process");
		}
		try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder().dataDirectory(data).start()) {
			RegistryClient client = client(registry);
			assertThat(client.lookup("orders-value", avro(ORDER_V1))).isEqualTo(id);
			assertThat(client.schema(id).text()).isEqualTo(ORDER_V1);
			// NONE was kept: an incompatible version is taken.
			client.register("orders-value", avro(ORDER_WITHOUT_DEFAULT));
			assertThat(client.register("new-value", RegistrySchema.json("{\"type\": \"number\"}"))).isEqualTo(id + 3);
		}
	}

	@Test
	void resolvesReferencesWhenChecking() throws Exception {
		try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder().start()) {
			client(registry).register("money", avro("""
					{"type": "record", "name": "Money", "namespace": "shop", "fields": [{"name": "cents", "type": "long"}]}"""));
			String order = "{\\\"type\\\": \\\"record\\\", \\\"name\\\": \\\"Order\\\", \\\"namespace\\\": \\\"shop\\\", "
					+ "\\\"fields\\\": [{\\\"name\\\": \\\"total\\\", \\\"type\\\": \\\"shop.Money\\\"}]}";
			String body = "{\"schema\": \"" + order + "\", \"references\": [{\"name\": \"shop.Money\", "
					+ "\"subject\": \"money\", \"version\": 1}]}";
			HttpResponse<String> registered = send(registry, "POST", "/subjects/orders-value/versions", body);
			assertThat(registered.statusCode()).isEqualTo(200);
			assertThat(send(registry, "GET", "/subjects/orders-value/versions/1", null).body())
				.contains("\"references\":[{\"name\":\"shop.Money\",\"subject\":\"money\",\"version\":1}]");
			HttpResponse<String> unresolved = send(registry, "POST", "/subjects/other-value/versions",
					body.replace("\"version\": 1", "\"version\": 7"));
			assertThat(unresolved.statusCode()).isEqualTo(422);
			assertThat(send(registry, "POST", "/subjects/bare-value/versions", "{\"schema\": \"" + order + "\"}")
				.statusCode()).isEqualTo(422);
		}
	}

	private static void assertIncompatible(RegistryClient client, String subject, RegistrySchema schema,
			String reason) {
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> client.register(subject, schema))
			.satisfies((ex) -> assertThat(ex.statusCode()).isEqualTo(409))
			.withMessageContaining(reason);
	}

	private static RegistrySchema avro(String text) {
		return new RegistrySchema(RegistrySchema.AVRO, text);
	}

	private static RegistryClient client(EmbeddedSchemaRegistry registry) {
		return RegistryClient.builder(registry.url()).retries(0).build();
	}

	private static HttpResponse<String> send(EmbeddedSchemaRegistry registry, String method, String path, String body)
			throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create(registry.url() + path))
			.method(method, (body != null) ? HttpRequest.BodyPublishers.ofString(body)
					: HttpRequest.BodyPublishers.noBody())
			.header("Content-Type", "application/vnd.schemaregistry.v1+json")
			.build();
		return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
	}

}
