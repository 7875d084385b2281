package dev.lockstep.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import dev.lockstep.registry.avro.RawAvroCodec;
import dev.lockstep.test.context.TestKafka;
import dev.lockstep.test.kafka.SecuredKafkaBroker;
import dev.lockstep.test.kafka.TestCertificates;
import dev.lockstep.test.kafka.WorkerAcls;
import dev.lockstep.worker.InvalidRecordException;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.SlotState;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.WorkerStatus;
import dev.lockstep.worker.test.Order;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclBinding;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker against a secured broker, as production runs it: SASL_SSL with SCRAM or
 * mutual TLS, the StandardAuthorizer, and only the ACLs the docs list as a worker's
 * least privilege. Every order normalized exactly once, the invalid ones quarantined,
 * health UP.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockstepSecuredClusterTests {

	private static final int ORDERS = 2_000;

	private static SecuredKafkaBroker broker;

	// The test's own set-up and checks, over the broker's administration listener.
	private static TestKafka kafka;

	@BeforeAll
	static void start() {
		broker = SecuredKafkaBroker.start();
		kafka = new TestKafka(broker);
		broker.addScramUser("normalizer", "normalizer-secret");
		broker.addScramUser("denied", "denied-secret");
	}

	@AfterAll
	static void stop() {
		if (kafka != null) {
			kafka.close();
		}
	}

	@Test
	void workerOverSaslSslWithLeastPrivilegeIsExact() {
		Names names = new Names("sasl");
		broker.grant(names.leastPrivilege("normalizer"));
		try (ConfigurableApplicationContext context = run(names, scram("normalizer", "normalizer-secret"))) {
			assertExact(context, names);
		}
	}

	@Test
	void workerOverOAuthBearerWithLeastPrivilegeIsExact() {
		Names names = new Names("oauth");
		broker.grant(names.leastPrivilege("oauth-normalizer"));
		try (ConfigurableApplicationContext context = run(names,
				SecuredKafkaBroker.springKafkaProperties(broker.oauthBearerClient("oauth-normalizer")))) {
			assertExact(context, names);
		}
	}

	@Test
	void workerOverMutualTlsWithLeastPrivilegeIsExact(CapturedOutput output) {
		Names names = new Names("mtls");
		broker.grant(names.leastPrivilege("tls-normalizer"));
		String password = broker.certificates().password();
		try (ConfigurableApplicationContext context = run(names,
				SecuredKafkaBroker.springKafkaProperties(broker.tlsClient("tls-normalizer")))) {
			assertExact(context, names);
		}
		assertThat(output).doesNotContain(password);
	}

	@ParameterizedTest
	@EnumSource
	void eachAclMissingIsNamedNothingLostAndTheWorkerGoesOnOnceGranted(Acl missing, CapturedOutput output) {
		Names names = new Names("denied-" + missing.name().toLowerCase(Locale.ROOT).replace('_', '-'));
		List<AclBinding> acls = names.leastPrivilege("denied");
		AclBinding withheld = acls.get(missing.ordinal());
		broker.grant(acls.stream().filter((acl) -> acl != withheld).toList());
		long started = System.nanoTime();
		try (ConfigurableApplicationContext context = run(names, scram("denied", "denied-secret"))) {
			LockstepWorkers workers = context.getBean(LockstepWorkers.class);
			awaitNamed(workers, names, started, "%s missing".formatted(missing), missing.named(names));
			if (missing != Acl.QUARANTINE_WRITE) {
				assertThat(workers.worker(names.worker).state().committedRecords()).isZero();
			}
			broker.grant(List.of(withheld));
			assertExact(context, names);
		}
		assertThat(output).doesNotContain("denied-secret");
	}

	@Test
	void outputWriteMissingShowsTheLagOfEveryUncommittedRecord() {
		Names names = new Names("lag");
		List<AclBinding> acls = names.leastPrivilege("denied");
		AclBinding outputWrite = acls.get(Acl.OUTPUT_WRITE.ordinal());
		broker.grant(acls.stream().filter((acl) -> acl != outputWrite).toList());
		try (ConfigurableApplicationContext context = run(names, scram("denied", "denied-secret"))) {
			LockstepWorkers workers = context.getBean(LockstepWorkers.class);
			// Read again and again, committed never: the lag an operator sees is all of it.
			await().atMost(Duration.ofSeconds(60))
				.untilAsserted(() -> assertThat(workers.worker(names.worker)
					.state()
					.slots()
					.stream()
					.flatMap((slot) -> slot.lag().values().stream())
					.mapToLong(Long::longValue)
					.sum()).isEqualTo(ORDERS));
			assertThat(workers.worker(names.worker).state().committedRecords()).isZero();
		}
	}

	@Test
	void wrongPasswordIsNamedNeverPrintedAndTheWorkerGoesOnOnceTheBrokerTakesIt(CapturedOutput output) {
		Names names = new Names("rotated");
		broker.addScramUser("rotated", "old-secret");
		broker.grant(names.leastPrivilege("rotated"));
		long started = System.nanoTime();
		try (ConfigurableApplicationContext context = run(names, scram("rotated", "new-secret-4711"))) {
			LockstepWorkers workers = context.getBean(LockstepWorkers.class);
			awaitNamed(workers, names, started, "wrong password", "SaslAuthenticationException");
			assertThat(workers.worker(names.worker).state().committedRecords()).isZero();
			// The password rotated on the broker: the worker's retries authenticate.
			broker.addScramUser("rotated", "new-secret-4711");
			assertExact(context, names);
		}
		assertThat(output).doesNotContain("new-secret-4711");
	}

	@Test
	void aBrokerCertificateOfAnotherAuthorityIsNamedAsATlsFailure() {
		Names names = new Names("untrusted");
		broker.grant(names.leastPrivilege("normalizer"));
		TestCertificates other = TestCertificates.create(broker.certificates().trustStore().resolveSibling("other"),
				"Another CA");
		Map<String, String> connection = new LinkedHashMap<>(scram("normalizer", "normalizer-secret"));
		connection.put("spring.kafka.ssl.trust-store-location", "file:" + other.trustStore());
		connection.put("spring.kafka.ssl.trust-store-password", other.password());
		long started = System.nanoTime();
		try (ConfigurableApplicationContext context = run(names, connection)) {
			LockstepWorkers workers = context.getBean(LockstepWorkers.class);
			awaitNamed(workers, names, started, "untrusted broker certificate", "SslAuthenticationException");
			assertThat(workers.worker(names.worker).state().committedRecords()).isZero();
		}
	}

	@Test
	void aBrokerCertificateForAnotherHostIsNamedAsAHostnameVerificationFailure() {
		Names names = new Names("hostname");
		String password = broker.certificates().password();
		Path elsewhere = broker.certificates()
			.issue("kafka-elsewhere", Instant.now().plus(Duration.ofDays(1)), "kafka.example");
		try (SecuredKafkaBroker misnamed = SecuredKafkaBroker.start(Map.of("ssl.keystore.location",
				elsewhere.toString(), "ssl.keystore.password", password, "ssl.key.password", password))) {
			Map<String, String> connection = new LinkedHashMap<>(scram("normalizer", "normalizer-secret"));
			connection.put("spring.kafka.bootstrap-servers", misnamed.saslSslBootstrapServers());
			long started = System.nanoTime();
			try (ConfigurableApplicationContext context = run(names, connection)) {
				awaitNamed(context.getBean(LockstepWorkers.class), names, started, "broker certificate for another host",
						"No subject alternative names matching IP address 127.0.0.1 found",
						"SslAuthenticationException");
			}
		}
	}

	@Test
	void anExpiredClientCertificateIsNamedAsATlsFailure(CapturedOutput output) {
		Names names = new Names("expired");
		Map<String, String> connection = new LinkedHashMap<>(
				SecuredKafkaBroker.springKafkaProperties(broker.tlsClient("tls-normalizer")));
		connection.put("spring.kafka.ssl.key-store-location", "file:" + broker.certificates()
			.issue("expired-normalizer", Instant.now().minus(Duration.ofHours(1)), "127.0.0.1", "localhost"));
		long started = System.nanoTime();
		try (ConfigurableApplicationContext context = run(names, connection)) {
			awaitNamed(context.getBean(LockstepWorkers.class), names, started, "expired client certificate",
					"SSLHandshakeException: Received fatal alert: certificate_unknown", "SslAuthenticationException");
		}
		assertThat(output).doesNotContain(broker.certificates().password());
	}

	@Test
	void aMissingClientCertificateIsNamedAsATlsFailure() {
		Names names = new Names("no-certificate");
		Map<String, String> connection = new LinkedHashMap<>(
				SecuredKafkaBroker.springKafkaProperties(broker.tlsClient("tls-normalizer")));
		connection.keySet().removeIf((key) -> key.startsWith("spring.kafka.ssl.key"));
		long started = System.nanoTime();
		try (ConfigurableApplicationContext context = run(names, connection)) {
			awaitNamed(context.getBean(LockstepWorkers.class), names, started, "missing client certificate",
					"SSLHandshakeException: Received fatal alert: bad_certificate", "SslAuthenticationException");
		}
	}

	/** Wait until a slot's recent errors name a failure, and print how long that took. */
	private static void awaitNamed(LockstepWorkers workers, Names names, long started, String failure,
			String... named) {
		await().atMost(Duration.ofSeconds(60))
			.untilAsserted(() -> assertThat(workers.worker(names.worker).state().slots())
				.flatExtracting(SlotState::recentErrors)
				.anySatisfy((error) -> assertThat(error).contains(named)));
		System.out.printf("SECURED %s named after %d ms: %s%n", failure,
				Duration.ofNanos(System.nanoTime() - started).toMillis(),
				workers.worker(names.worker).state().slots().stream().flatMap((slot) -> slot.recentErrors().stream())
					.filter((error) -> error.contains(named[0])).findFirst().orElse(""));
	}

	private static Map<String, String> scram(String user, String password) {
		return SecuredKafkaBroker.springKafkaProperties(broker.scramClient(user, password));
	}

	/** Create the scenario's topics, seed its orders, and start the service. */
	private static ConfigurableApplicationContext run(Names names, Map<String, String> connection) {
		names.createTopics();
		names.seed();
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("lockstep.security.require-encryption", "true");
		properties.putAll(names.workerProperties());
		properties.putAll(connection);
		return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE).properties(properties).run();
	}

	/** Every order normalized or quarantined exactly once, the worker RUNNING, health UP. */
	private static void assertExact(ConfigurableApplicationContext context, Names names) {
		LockstepWorkers workers = context.getBean(LockstepWorkers.class);
		await().atMost(Duration.ofSeconds(90))
			.failFast("worker failed", () -> workers.worker(names.worker).state().status() == WorkerStatus.FAILED)
			.untilAsserted(() -> assertThat(workers.worker(names.worker).state().committedRecords())
				.as(() -> workers.worker(names.worker).state().toString())
				.isEqualTo(ORDERS));
		List<String> keys = new ArrayList<>();
		kafka.readCommitted(names.output, ORDERS - ORDERS / 100, Duration.ofSeconds(30))
			.forEach((record) -> keys.add(new String(record.key(), StandardCharsets.UTF_8)));
		List<ConsumerRecord<byte[], byte[]>> quarantined = kafka.readCommitted(names.quarantine, ORDERS / 100,
				Duration.ofSeconds(30));
		quarantined.forEach((record) -> keys.add(new String(record.key(), StandardCharsets.UTF_8)));
		assertThat(keys).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(names.keys);
		assertThat(quarantined).hasSize(ORDERS / 100);
		HealthIndicator health = context.getBean("kafkaHealthIndicator", HealthIndicator.class);
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(health.health(true).getStatus()).as(() -> health.health(true).toString())
				.isEqualTo(Status.UP));
		// A worker's least privilege does not show the transaction state log; health says so.
		assertThat(health.health(true).getDetails()).containsEntry("transactionStateLog",
				"not checked (DESCRIBE on topic __transaction_state not granted)");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> workers.worker(names.worker).state().status() == WorkerStatus.RUNNING);
	}

	/** A worker's least privilege, in the order of {@link Names#leastPrivilege(String)}. */
	enum Acl {

		INPUT_READ, GROUP_READ, OUTPUT_WRITE, QUARANTINE_WRITE, TRANSACTIONAL_ID_WRITE;

		/** What the worker's status names when this ACL is missing. */
		String[] named(Names names) {
			return switch (this) {
				case INPUT_READ -> new String[] {
						"FATAL after TopicAuthorizationException: Not authorized to access topics: [" + names.input + "]" };
				case GROUP_READ -> new String[] {
						"FATAL after GroupAuthorizationException: Not authorized to access group: " + names.group };
				case OUTPUT_WRITE -> new String[] {
						"FATAL after TopicAuthorizationException: Not authorized to access topics: [" + names.output + "]" };
				case QUARANTINE_WRITE -> new String[] { "FATAL after TopicAuthorizationException: "
						+ "Not authorized to access topics: [" + names.quarantine + "]" };
				case TRANSACTIONAL_ID_WRITE -> new String[] { "transactional id " + names.transactionalId + "-",
						": TransactionalIdAuthorizationException: Transactional Id authorization failed." };
			};
		}

	}

	/** One test's topics, group and transactional ids, and the ACLs of its worker's user. */
	private static final class Names {

		final String worker;

		final String input;

		final String output;

		final String quarantine;

		final String group;

		final String transactionalId;

		final List<String> keys = new ArrayList<>();

		Names(String scenario) {
			String id = scenario + "-" + UUID.randomUUID().toString().substring(0, 8);
			this.worker = "normalizer";
			this.input = id + "-orders";
			this.output = id + "-normalized";
			this.quarantine = id + "-quarantine";
			this.group = id + "-normalizers";
			this.transactionalId = id + "-normalizer";
		}

		/** The ACLs docs/security.md lists for a worker. */
		List<AclBinding> leastPrivilege(String user) {
			return new WorkerAcls(user, List.of(this.input), this.group, List.of(this.output, this.quarantine),
					this.transactionalId)
				.bindings();
		}

		Map<String, Object> workerProperties() {
			String prefix = "lockstep.workers." + this.worker + ".";
			Map<String, Object> properties = new HashMap<>();
			properties.put("spring.kafka.consumer.auto-offset-reset", "earliest");
			properties.put(prefix + "source-topics", this.input);
			properties.put(prefix + "destination", this.output);
			properties.put(prefix + "group-id", this.group);
			properties.put(prefix + "transactional-id", this.transactionalId);
			properties.put(prefix + "key.codec", "string");
			properties.put(prefix + "value.codec", "raw-avro");
			properties.put(prefix + "value.type", Order.class.getName());
			properties.put(prefix + "invalid-input.policy", "quarantine");
			properties.put(prefix + "invalid-input.quarantine-topic", this.quarantine);
			return properties;
		}

		void createTopics() {
			kafka.createTopics(List.of(this.input, this.output), 2);
			kafka.createTopics(List.of(this.quarantine), 1);
		}

		/** Write the orders over the administration listener, one in a hundred invalid. */
		void seed() {
			RawAvroCodec<Order> codec = new RawAvroCodec<>(Order.class);
			List<ProducerRecord<byte[], byte[]>> orders = new ArrayList<>();
			for (int i = 1; i <= ORDERS; i++) {
				String key = "order-" + i;
				String status = (i % 100 == 0) ? "lost" : "paid";
				orders.add(new ProducerRecord<>(this.input, key.getBytes(StandardCharsets.UTF_8),
						codec.encode(new Order((long) i, status, 100L))));
				this.keys.add(key);
			}
			kafka.send(orders);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		@Bean
		ValueTransformer<Order, Order> normalizer() {
			return (order) -> {
				if (order.getStatus().equals("lost")) {
					throw new InvalidRecordException("order " + order.getId() + " has no known status");
				}
				return new Order(order.getId(), order.getStatus().toUpperCase(Locale.ROOT), order.getAmountCents());
			};
		}

	}

}
