package dev.lockstep.registry;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.lockstep.registry.kafka.RegistrySerdeConfig;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Registry HTTPS against a server whose certificate (for {@code localhost} only) is made
 * by the JDK's keytool for this test.
 */
class RegistryTlsTests {

	private static final String PASSWORD = "changeit";

	@TempDir
	static Path dir;

	private static HttpsServer server;

	private static Path caPem;

	private static Path trustStore;

	@BeforeAll
	static void startHttpsRegistry() throws Exception {
		Path keyStore = dir.resolve("server.p12");
		caPem = dir.resolve("ca.pem");
		trustStore = dir.resolve("trust.p12");
		keytool("-genkeypair", "-alias", "registry", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=localhost",
				"-ext", "san=dns:localhost", "-validity", "2", "-keystore", keyStore.toString(), "-storetype",
				"PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
		keytool("-exportcert", "-alias", "registry", "-rfc", "-file", caPem.toString(), "-keystore",
				keyStore.toString(), "-storepass", PASSWORD);
		keytool("-importcert", "-noprompt", "-alias", "registry-ca", "-file", caPem.toString(), "-keystore",
				trustStore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);

		KeyStore keys = KeyStore.getInstance("PKCS12");
		try (InputStream in = new FileInputStream(keyStore.toFile())) {
			keys.load(in, PASSWORD.toCharArray());
		}
		KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		keyManagers.init(keys, PASSWORD.toCharArray());
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(keyManagers.getKeyManagers(), null, null);
		server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
		server.setHttpsConfigurator(new HttpsConfigurator(context));
		server.createContext("/", (exchange) -> {
			byte[] body = "{\"schema\": \"\\\"string\\\"\"}".getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		server.start();
	}

	@AfterAll
	static void stopServer() {
		server.stop(0);
	}

	private static String url(String host) {
		return "https://" + host + ":" + server.getAddress().getPort();
	}

	@Test
	void caFileIsTrustedAndHostnameMatches() {
		RegistryClient client = RegistryClient.builder(url("localhost")).caCertificates(caPem).build();
		assertThat(client.schemaById(1)).isEqualTo(Schema.create(Schema.Type.STRING));
	}

	@Test
	void serverUnknownToTheDefaultTrustStoreIsATlsFailureThatIsNotRetried() {
		RegistryClient client = RegistryClient.builder(url("localhost")).build();
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> client.schemaById(1))
			.withMessageContaining("TLS failure")
			.satisfies((ex) -> {
				assertThat(ex.statusCode()).isZero();
				assertThat(ex.isRetryable()).isFalse();
			});
	}

	@Test
	void hostnameVerificationStaysOnWithACustomCa() {
		RegistryClient client = RegistryClient.builder(url("127.0.0.1")).caCertificates(caPem).build();
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> client.schemaById(1))
			.withMessageContaining("TLS failure");
	}

	@Test
	void serdeTrustStoreKeysAreHonoured() {
		RegistryClient pkcs12 = RegistrySerdeConfig
			.of(Map.of("schema.registry.url", url("localhost"), "schema.registry.ssl.truststore.location",
					trustStore.toString(), "schema.registry.ssl.truststore.password", PASSWORD,
					"schema.registry.ssl.truststore.type", "PKCS12"), false)
			.createClient();
		assertThat(pkcs12.schemaById(1)).isEqualTo(Schema.create(Schema.Type.STRING));
		RegistryClient pem = RegistrySerdeConfig
			.of(Map.of("schema.registry.url", url("localhost"), "schema.registry.ssl.truststore.location",
					caPem.toString(), "schema.registry.ssl.truststore.type", "PEM"), false)
			.createClient();
		assertThat(pem.schemaById(1)).isEqualTo(Schema.create(Schema.Type.STRING));
	}

	private static void keytool(String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
			throw new IllegalStateException("keytool failed: " + output);
		}
	}

}
