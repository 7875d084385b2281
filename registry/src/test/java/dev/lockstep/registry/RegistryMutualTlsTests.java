package dev.lockstep.registry;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.lockstep.registry.kafka.RegistrySerdeConfig;
import dev.lockstep.registry.server.EmbeddedSchemaRegistry;
import dev.lockstep.test.kafka.TestCertificates;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A registry behind HTTPS that requires a client certificate of its authority (mutual TLS)
 * and a bearer token or Basic credentials, as secured registries run: the client's key
 * store given as Confluent's serde keys name it, or a whole TLS context. Wrong
 * credentials are refused by status, without echoing them.
 */
class RegistryMutualTlsTests {

	private static final Schema ORDER = Schema.createRecord("Order", null, "dev.lockstep.test", false,
			List.of(new Schema.Field("id", Schema.create(Schema.Type.LONG))));

	private static final String TOKEN = "token-5d1c0a77";

	private static final String BASIC = "Basic c3ZjOnMzY3JldC1wYXNz"; // svc:s3cret-pass

	@TempDir
	static Path dir;

	private static TestCertificates authority;

	private static EmbeddedSchemaRegistry registry;

	private static long id;

	@BeforeAll
	static void startRegistry() {
		authority = TestCertificates.create(dir.resolve("ca"), "Registry test CA");
		registry = EmbeddedSchemaRegistry.builder()
			.tls(authority.sslContext("registry"), true)
			.interceptor((exchange, request, registry) -> {
				String authorization = exchange.getRequestHeaders().getFirst("Authorization");
				if (("Bearer " + TOKEN).equals(authorization) || BASIC.equals(authorization)) {
					return false;
				}
				registry.error(exchange, 401, 40101, "Unauthorized");
				return true;
			})
			.start();
		id = registry.register("orders-value", new RegistrySchema(RegistrySchema.AVRO, ORDER.toString()));
	}

	@AfterAll
	static void stopRegistry() {
		if (registry != null) {
			registry.close();
		}
	}

	@Test
	void aClientCertificateFromConfluentsKeyStoreKeysAndABearerTokenAreAccepted() {
		RegistryClient client = RegistrySerdeConfig.of(serdeConfig(authority.keyStore("orders-service")), false)
			.createClient();
		assertThat(client.schemaById(id)).isEqualTo(ORDER);
	}

	@Test
	void aWholeTlsContextWithBasicCredentialsIsAccepted() {
		RegistryClient client = RegistryClient.builder(registry.url())
			.sslContext(authority.sslContext("orders-service"))
			.basicAuth("svc", "s3cret-pass")
			.build();
		assertThat(client.schemaById(id)).isEqualTo(ORDER);
	}

	@Test
	void withoutAClientCertificateTheRegistryRefusesTheConnection() {
		Map<String, Object> config = serdeConfig(null);
		RegistryException refused = catchRegistry(RegistrySerdeConfig.of(config, false).createClient());
		assertRefusedByTheServer(refused);
	}

	@Test
	void aClientCertificateOfAnotherAuthorityIsRefused() {
		TestCertificates other = TestCertificates.create(dir.resolve("other"), "Another CA");
		RegistryException refused = catchRegistry(
				RegistrySerdeConfig.of(serdeConfig(other.keyStore("orders-service"), other.password()), false)
					.createClient());
		assertRefusedByTheServer(refused);
	}

	@Test
	void aRegistryCertificateForAnotherHostIsRefusedThroughAWholeTlsContextToo() {
		// Issued for another host only; the key store the context below reads.
		authority.issue("registry-elsewhere", Instant.now().plus(Duration.ofDays(1)), "registry.example");
		try (EmbeddedSchemaRegistry misnamed = EmbeddedSchemaRegistry.builder()
			.tls(authority.sslContext("registry-elsewhere"), false)
			.start()) {
			RegistryClient client = RegistryClient.builder(misnamed.url())
				.sslContext(authority.sslContext("orders-service"))
				.build();
			RegistryException refused = catchThrowableOfType(RegistryException.class, () -> client.schemaById(1));
			assertThat(refused).hasMessageContaining("TLS failure")
				.hasMessageContaining("No subject alternative names matching IP address 127.0.0.1");
			assertThat(refused.isRetryable()).isFalse();
		}
	}

	@Test
	void aTlsContextExcludesTheOtherTrustAndCertificateOptions() {
		RegistryClient.Builder builder = RegistryClient.builder(registry.url())
			.sslContext(authority.sslContext("orders-service"))
			.caCertificates(dir.resolve("ca.pem"));
		assertThatIllegalArgumentException().isThrownBy(builder::build)
			.withMessageContaining("a TLS context excludes CA certificates, a trust store and a client certificate");
	}

	@Test
	void aWrongBearerTokenIsRefusedWith401WithoutEchoingIt() {
		Map<String, Object> config = serdeConfig(authority.keyStore("orders-service"));
		config.put("bearer.auth.token", "wrong-token-9a8b");
		RegistryException refused = catchRegistry(RegistrySerdeConfig.of(config, false).createClient());
		assertThat(refused.statusCode()).isEqualTo(401);
		assertThat(refused.isRetryable()).isFalse();
		assertThat(refused).hasMessageNotContaining("wrong-token-9a8b");
	}

	@Test
	void aWrongBasicPasswordIsRefusedWith401WithoutEchoingIt() {
		RegistryClient client = RegistryClient.builder(registry.url())
			.sslContext(authority.sslContext("orders-service"))
			.basicAuth("svc", "wrong-pass-77")
			.build();
		RegistryException refused = catchRegistry(client);
		assertThat(refused.statusCode()).isEqualTo(401);
		assertThat(refused).hasMessageNotContaining("wrong-pass-77");
	}

	/**
	 * Refused by the server, never authenticated: over TLS 1.3 it checks the client's
	 * certificate after the client's handshake, and this server (the JDK's) closes the
	 * connection without an alert, an I/O failure to the client; one that sends the alert
	 * is a TLS failure.
	 */
	private static void assertRefusedByTheServer(RegistryException refused) {
		assertThat(refused.statusCode()).isZero();
		assertThat(refused.getMessage()).contains("https://127.0.0.1").containsAnyOf("I/O failure", "TLS failure");
	}

	private static RegistryException catchRegistry(RegistryClient client) {
		return catchThrowableOfType(RegistryException.class, () -> client.schemaById(id));
	}

	private static Map<String, Object> serdeConfig(Path keyStore) {
		return serdeConfig(keyStore, authority.password());
	}

	/** Confluent's serde keys: the registry's authority trusted, a client key store, a token. */
	private static Map<String, Object> serdeConfig(Path keyStore, String keyStorePassword) {
		Map<String, Object> config = new HashMap<>();
		config.put("schema.registry.url", registry.url());
		config.put("schema.registry.ssl.truststore.location", authority.trustStore().toString());
		config.put("schema.registry.ssl.truststore.password", authority.password());
		config.put("schema.registry.ssl.truststore.type", "PKCS12");
		if (keyStore != null) {
			config.put("schema.registry.ssl.keystore.location", keyStore.toString());
			config.put("schema.registry.ssl.keystore.password", keyStorePassword);
			config.put("schema.registry.ssl.keystore.type", "PKCS12");
		}
		config.put("bearer.auth.credentials.source", "STATIC_TOKEN");
		config.put("bearer.auth.token", TOKEN);
		return config;
	}

}
