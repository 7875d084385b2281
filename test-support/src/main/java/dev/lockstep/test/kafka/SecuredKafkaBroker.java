package dev.lockstep.test.kafka;

import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

import dev.lockstep.kraft.FreePorts;
import dev.lockstep.kraft.KRaftNode;
import dev.lockstep.kraft.KRaftNodeConfig;
import dev.lockstep.kraft.KafkaExitProcedure;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;

/**
 * A single-node KRaft broker in this JVM secured as production clusters are: a
 * {@code SASL_SSL} listener (SCRAM-SHA-256 and SCRAM-SHA-512, and OAUTHBEARER with Kafka's
 * unsecured token validator), an {@code SSL} listener
 * that requires a client certificate (the principal is the certificate's common name),
 * and the StandardAuthorizer, so every client but the administrator needs ACLs. Its
 * certificates come from a {@link TestCertificates} authority made for it.
 * <p>
 * {@link #bootstrapServers()} is the administration listener: plaintext on 127.0.0.1,
 * its principal ({@code User:ANONYMOUS}) a super user, for a test's own set-up and
 * checks (topics, users, ACLs, reading the output). The clients under test use
 * {@link #scramClient(String, String)}, {@link #oauthBearerClient(String)} or
 * {@link #tlsClient(String)}.
 */
public final class SecuredKafkaBroker implements KafkaBroker {

	/** The SASL mechanism of {@link #scramClient(String, String)}. */
	public static final String SCRAM_MECHANISM = "SCRAM-SHA-512";

	private static final String SCRAM_LOGIN = "org.apache.kafka.common.security.scram.ScramLoginModule";

	private static final String OAUTHBEARER_LOGIN = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";

	private static final long ADMIN_TIMEOUT_SECONDS = 30;

	// Client keys Spring Boot maps itself; any other goes to spring.kafka.properties.*.
	private static final Map<String, String> SPRING_KAFKA_KEYS = Map.of(
			AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "spring.kafka.bootstrap-servers",
			AdminClientConfig.SECURITY_PROTOCOL_CONFIG, "spring.kafka.security.protocol",
			SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "spring.kafka.ssl.trust-store-type",
			SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, "spring.kafka.ssl.trust-store-location",
			SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, "spring.kafka.ssl.trust-store-password",
			SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "spring.kafka.ssl.key-store-type",
			SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, "spring.kafka.ssl.key-store-location",
			SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, "spring.kafka.ssl.key-store-password",
			SslConfigs.SSL_KEY_PASSWORD_CONFIG, "spring.kafka.ssl.key-password");

	private final Path baseDir;

	private final TestCertificates certificates;

	private final KRaftNodeConfig config;

	private final int saslSslPort;

	private final int sslPort;

	private final KRaftNode node;

	private final Admin admin;

	private SecuredKafkaBroker(Path baseDir, TestCertificates certificates, KRaftNodeConfig config, int saslSslPort,
			int sslPort) {
		this.baseDir = baseDir;
		this.certificates = certificates;
		this.config = config;
		this.saslSslPort = saslSslPort;
		this.sslPort = sslPort;
		this.node = KRaftNode.start(config);
		this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
	}

	/**
	 * Start a secured single-node broker of the release on this JVM's class path on
	 * free 127.0.0.1 ports.
	 * @return the running broker
	 */
	public static SecuredKafkaBroker start() {
		return start(Map.of());
	}

	/**
	 * Start a secured single-node broker on free 127.0.0.1 ports.
	 * @param overrides broker properties that win over the test defaults and the security
	 * settings
	 * @return the running broker
	 */
	public static SecuredKafkaBroker start(Map<String, String> overrides) {
		KafkaExitProcedure.throwInstead("Test broker");
		Path baseDir = Directories.createTemp("lockstep-kafka-secured-");
		try {
			TestCertificates certificates = TestCertificates.create(baseDir.resolve("tls"), "Lockstep test CA");
			int saslSslPort = FreePorts.next();
			int sslPort = FreePorts.next();
			KRaftNodeConfig plain = KRaftNodeConfig.newCluster(1, baseDir, Map.of()).get(0);
			Map<String, String> settings = new LinkedHashMap<>(
					securitySettings(plain, certificates, saslSslPort, sslPort));
			settings.putAll(overrides);
			KRaftNodeConfig config = new KRaftNodeConfig(plain.nodeId(), plain.brokerPort(), plain.controllerPort(),
					plain.voters(), plain.clusterSize(), plain.logDir(), plain.clusterId(), settings);
			return new SecuredKafkaBroker(baseDir, certificates, config, saslSslPort, sslPort);
		}
		catch (RuntimeException ex) {
			Directories.deleteRecursively(baseDir);
			throw ex;
		}
	}

	private static Map<String, String> securitySettings(KRaftNodeConfig node, TestCertificates certificates,
			int saslSslPort, int sslPort) {
		String plaintext = "PLAINTEXT://127.0.0.1:" + node.brokerPort();
		String secured = ",SASL_SSL://127.0.0.1:" + saslSslPort + ",SSL://127.0.0.1:" + sslPort;
		Map<String, String> settings = new LinkedHashMap<>();
		settings.put("listeners", plaintext + secured + "," + KRaftNodeConfig.CONTROLLER_LISTENER + "://127.0.0.1:"
				+ node.controllerPort());
		settings.put("advertised.listeners", plaintext + secured);
		settings.put("listener.security.protocol.map",
				"PLAINTEXT:PLAINTEXT,SASL_SSL:SASL_SSL,SSL:SSL," + KRaftNodeConfig.CONTROLLER_LISTENER + ":PLAINTEXT");
		settings.put("listener.name.sasl_ssl.sasl.enabled.mechanisms", "SCRAM-SHA-256,SCRAM-SHA-512,OAUTHBEARER");
		settings.put("listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config", SCRAM_LOGIN + " required;");
		settings.put("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config", SCRAM_LOGIN + " required;");
		// Kafka's unsecured JWS validator, its default without a handler: proves a client's
		// OAUTHBEARER wiring, not an identity provider's.
		settings.put("listener.name.sasl_ssl.oauthbearer.sasl.jaas.config", OAUTHBEARER_LOGIN + " required;");
		settings.put("listener.name.ssl.ssl.client.auth", "required");
		settings.put("ssl.keystore.type", "PKCS12");
		settings.put("ssl.keystore.location", certificates.keyStore("broker").toString());
		settings.put("ssl.keystore.password", certificates.password());
		settings.put("ssl.key.password", certificates.password());
		settings.put("ssl.truststore.type", "PKCS12");
		settings.put("ssl.truststore.location", certificates.trustStore().toString());
		settings.put("ssl.truststore.password", certificates.password());
		// A client certificate's principal is its common name, as a user's SCRAM name is.
		settings.put("ssl.principal.mapping.rules", "RULE:^CN=([^,]+).*$/$1/,DEFAULT");
		settings.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
		// The plaintext listeners (administration, inter-broker, controller) are loopback only.
		settings.put("super.users", "User:ANONYMOUS");
		return settings;
	}

	/**
	 * Return the administration listener: plaintext, its principal a super user.
	 * @return the {@code bootstrap.servers} value
	 */
	@Override
	public String bootstrapServers() {
		return this.config.bootstrapServer();
	}

	/**
	 * Return the {@code SASL_SSL} listener's address (SCRAM-SHA-256 and SCRAM-SHA-512).
	 * @return the {@code bootstrap.servers} value
	 */
	public String saslSslBootstrapServers() {
		return "127.0.0.1:" + this.saslSslPort;
	}

	/**
	 * Return the {@code SSL} listener's address (a client certificate required).
	 * @return the {@code bootstrap.servers} value
	 */
	public String sslBootstrapServers() {
		return "127.0.0.1:" + this.sslPort;
	}

	/**
	 * Return the authority that issued the broker's certificate and issues clients'.
	 * @return the authority
	 */
	public TestCertificates certificates() {
		return this.certificates;
	}

	/**
	 * Create a SCRAM user (SCRAM-SHA-256 and SCRAM-SHA-512), or change its password,
	 * returning once the broker knows the user (a changed password may take a moment more:
	 * a client retrying authentication sees it).
	 * @param name the user's name, its principal {@code User:<name>}
	 * @param password the user's password
	 */
	public void addScramUser(String name, String password) {
		// One mechanism per request: Kafka refuses a user altered twice in one.
		for (ScramMechanism mechanism : List.of(ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512)) {
			await(this.admin
				.alterUserScramCredentials(List.of(
						new UserScramCredentialUpsertion(name, new ScramCredentialInfo(mechanism, 4096), password)))
				.all());
		}
		// The controller has it; the broker answers from its own metadata once applied.
		awaitBroker("user " + name, () -> scramMechanisms(name) == 2);
	}

	private int scramMechanisms(String user) {
		try {
			return this.admin.describeUserScramCredentials(List.of(user))
				.description(user)
				.get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)
				.credentialInfos()
				.size();
		}
		catch (ExecutionException ex) {
			// Not known to the broker yet.
			return 0;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException("The secured test broker's administrator failed", ex);
		}
	}

	/**
	 * Grant ACLs, returning once the broker's authorizer applies them.
	 * @param bindings what to allow or deny
	 */
	public void grant(Collection<AclBinding> bindings) {
		await(this.admin.createAcls(bindings).all());
		for (AclBinding binding : bindings) {
			awaitBroker("ACL " + binding, () -> !await(this.admin.describeAcls(binding.toFilter()).values()).isEmpty());
		}
	}

	/**
	 * Remove the ACLs that match filters, returning once the broker's authorizer has.
	 * @param filters which ACLs to remove
	 */
	public void revoke(Collection<AclBindingFilter> filters) {
		await(this.admin.deleteAcls(filters).all());
		for (AclBindingFilter filter : filters) {
			awaitBroker("no ACL " + filter, () -> await(this.admin.describeAcls(filter).values()).isEmpty());
		}
	}

	/**
	 * Return the properties of a client of a SCRAM user over {@code SASL_SSL}
	 * ({@value #SCRAM_MECHANISM}, the broker's authority trusted).
	 * @param user the user's name
	 * @param password the password the client presents
	 * @return Kafka client properties, {@code bootstrap.servers} included
	 */
	public Map<String, Object> scramClient(String user, String password) {
		return saslSslClient(SCRAM_MECHANISM,
				SCRAM_LOGIN + " required username=\"" + user + "\" password=\"" + password + "\";");
	}

	/**
	 * Return the properties of a client over {@code SASL_SSL} with {@code OAUTHBEARER}:
	 * Kafka's own login module with an unsecured token for a subject, which the broker's
	 * unsecured validator accepts (the wiring of a client's OAuth configuration, without an
	 * identity provider).
	 * @param subject the token's subject, the client's principal {@code User:<subject>}
	 * @return Kafka client properties, {@code bootstrap.servers} included
	 */
	public Map<String, Object> oauthBearerClient(String subject) {
		return saslSslClient("OAUTHBEARER",
				OAUTHBEARER_LOGIN + " required unsecuredLoginStringClaim_sub=\"" + subject + "\";");
	}

	private Map<String, Object> saslSslClient(String mechanism, String jaasConfig) {
		Map<String, Object> client = new LinkedHashMap<>();
		client.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, saslSslBootstrapServers());
		client.put(AdminClientConfig.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
		client.put(SaslConfigs.SASL_MECHANISM, mechanism);
		client.put(SaslConfigs.SASL_JAAS_CONFIG, jaasConfig);
		client.putAll(trust());
		return client;
	}

	/**
	 * Return the properties of a client authenticated by a certificate over {@code SSL}
	 * (issued by the broker's authority on first request).
	 * @param commonName the certificate's common name, the client's principal
	 * {@code User:<commonName>}
	 * @return Kafka client properties, {@code bootstrap.servers} included
	 */
	public Map<String, Object> tlsClient(String commonName) {
		Map<String, Object> client = new LinkedHashMap<>();
		client.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, sslBootstrapServers());
		client.put(AdminClientConfig.SECURITY_PROTOCOL_CONFIG, "SSL");
		client.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12");
		client.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, this.certificates.keyStore(commonName).toString());
		client.put(SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, this.certificates.password());
		client.put(SslConfigs.SSL_KEY_PASSWORD_CONFIG, this.certificates.password());
		client.putAll(trust());
		return client;
	}

	/**
	 * Return a client's properties as Spring Boot's {@code spring.kafka.*} properties, for
	 * an application under test: from a {@code @DynamicPropertySource} method, or as
	 * command-line arguments of a service's jar. The bootstrap servers, security protocol
	 * and stores go to their own keys; the SASL settings to {@code spring.kafka.properties.*}.
	 * @param client properties from {@link #scramClient(String, String)},
	 * {@link #oauthBearerClient(String)} or {@link #tlsClient(String)}
	 * @return the Spring Boot properties
	 */
	public static Map<String, String> springKafkaProperties(Map<String, Object> client) {
		Map<String, String> properties = new LinkedHashMap<>();
		client.forEach((key, value) -> {
			String property = SPRING_KAFKA_KEYS.get(key);
			if (property == null) {
				properties.put("spring.kafka.properties." + key, String.valueOf(value));
			}
			else {
				// Spring Boot reads store locations as resources.
				properties.put(property, (property.endsWith("-location") ? "file:" : "") + value);
			}
		});
		return properties;
	}

	private Map<String, Object> trust() {
		return Map.of(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12", SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG,
				this.certificates.trustStore().toString(), SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG,
				this.certificates.password());
	}

	@Override
	public String description() {
		return "in-JVM secured KRaft broker (SASL_SSL " + saslSslBootstrapServers() + ", SSL "
				+ sslBootstrapServers() + ", administration " + bootstrapServers() + ")";
	}

	@Override
	public void close() {
		try {
			this.admin.close();
			this.node.close();
		}
		finally {
			Directories.deleteRecursively(this.baseDir);
		}
	}

	@Override
	public String toString() {
		return description();
	}

	private static void awaitBroker(String what, BooleanSupplier applied) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ADMIN_TIMEOUT_SECONDS);
		while (!applied.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("The secured test broker did not apply " + what + " within "
						+ ADMIN_TIMEOUT_SECONDS + " s");
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted", ex);
			}
		}
	}

	private static <T> T await(KafkaFuture<T> future) {
		try {
			return future.get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("The secured test broker's administrator failed", ex);
		}
	}

}
