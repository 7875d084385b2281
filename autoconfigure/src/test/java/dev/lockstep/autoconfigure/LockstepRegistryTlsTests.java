package dev.lockstep.autoconfigure;

import java.nio.file.Path;

import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.autoconfigure.validation.LockstepConfigurationFailureAnalyzerAccess;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.server.EmbeddedSchemaRegistry;
import dev.lockstep.test.kafka.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The application's registry client behind HTTPS with mutual TLS: its client certificate
 * and trust from a Spring Boot SSL bundle ({@code lockstep.registry.ssl-bundle}), with a
 * bearer token, and with {@code require-encryption}.
 */
class LockstepRegistryTlsTests {

	private static final String TOKEN = "registry-token-31f2";

	private static final String SCHEMA = """
			{"type": "record", "name": "Order", "fields": [{"name": "id", "type": "long"}]}""";

	@TempDir
	static Path dir;

	private static TestCertificates authority;

	private static EmbeddedSchemaRegistry registry;

	private static long id;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, LockstepRegistryAutoConfiguration.class))
		.withPropertyValues("lockstep.security.require-encryption=true");

	@BeforeAll
	static void startRegistry() {
		authority = TestCertificates.create(dir, "Registry test CA");
		registry = EmbeddedSchemaRegistry.builder()
			.tls(authority.sslContext("registry"), true)
			.interceptor((exchange, request, registry) -> {
				if (("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
					return false;
				}
				registry.error(exchange, 401, 40101, "Unauthorized");
				return true;
			})
			.start();
		id = registry.register("orders-value", new RegistrySchema(RegistrySchema.AVRO, SCHEMA));
	}

	@AfterAll
	static void stopRegistry() {
		if (registry != null) {
			registry.close();
		}
	}

	@Test
	void anSslBundlesClientCertificateAndTrustReachAMutualTlsRegistry() {
		this.runner.withPropertyValues(bundle("orders-service"))
			.withPropertyValues("lockstep.registry.url=" + registry.url(), "lockstep.registry.ssl-bundle=registry",
					"lockstep.registry.bearer-token=" + TOKEN)
			.run((context) -> assertThat(context.getBean(RegistryClient.class).schemaById(id).getName())
				.isEqualTo("Order"));
	}

	@Test
	void aWrongBearerTokenIsRefusedWith401WithoutEchoingIt() {
		this.runner.withPropertyValues(bundle("orders-service"))
			.withPropertyValues("lockstep.registry.url=" + registry.url(), "lockstep.registry.ssl-bundle=registry",
					"lockstep.registry.bearer-token=wrong-token-0c3e")
			.run((context) -> {
				RegistryException refused = catchThrowableOfType(RegistryException.class,
						() -> context.getBean(RegistryClient.class).schemaById(id));
				assertThat(refused.statusCode()).isEqualTo(401);
				assertThat(refused).hasMessageNotContaining("wrong-token-0c3e");
			});
	}

	@Test
	void aCaFileBesideAnSslBundleIsRefusedAtStart() {
		this.runner.withPropertyValues(bundle("orders-service"))
			.withPropertyValues("lockstep.registry.url=" + registry.url(), "lockstep.registry.ssl-bundle=registry",
					"lockstep.registry.ca-file=/etc/ssl/registry-ca.pem")
			.run((context) -> {
				LockstepConfigurationException refused = LockstepConfigurationFailureAnalyzerAccess
					.refusalIn(context.getStartupFailure());
				assertThat(refused.getProperty()).isEqualTo("lockstep.registry.ca-file");
				assertThat(refused.getReason()).contains("lockstep.registry.ssl-bundle");
			});
	}

	@Test
	void anUnknownSslBundleIsRefusedAtStartNamingTheProperty() {
		this.runner
			.withPropertyValues("lockstep.registry.url=" + registry.url(), "lockstep.registry.ssl-bundle=registyr")
			.run((context) -> {
				LockstepConfigurationException refused = LockstepConfigurationFailureAnalyzerAccess
					.refusalIn(context.getStartupFailure());
				assertThat(refused.getProperty()).isEqualTo("lockstep.registry.ssl-bundle");
				assertThat(refused.getReason()).contains("no SSL bundle named 'registyr'");
			});
	}

	/** A JKS-style SSL bundle named "registry": a client's key store and the authority's trust. */
	private static String[] bundle(String commonName) {
		String prefix = "spring.ssl.bundle.jks.registry.";
		return new String[] { prefix + "keystore.location=file:" + authority.keyStore(commonName),
				prefix + "keystore.password=" + authority.password(), prefix + "keystore.type=PKCS12",
				prefix + "truststore.location=file:" + authority.trustStore(),
				prefix + "truststore.password=" + authority.password(), prefix + "truststore.type=PKCS12" };
	}

}
