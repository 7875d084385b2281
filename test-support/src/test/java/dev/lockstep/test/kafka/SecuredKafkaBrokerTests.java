package dev.lockstep.test.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

class SecuredKafkaBrokerTests {

	private static SecuredKafkaBroker broker;

	@BeforeAll
	static void start() {
		broker = SecuredKafkaBroker.start();
		broker.addScramUser("alice", "alice-secret");
	}

	@AfterAll
	static void stop() {
		broker.close();
	}

	@Test
	void scramUserWithAclsWritesAndReadsTransactionallyOverSaslSsl() throws Exception {
		String topic = newTopic();
		broker.grant(acls("alice", topic));
		assertRoundTrip(broker.scramClient("alice", "alice-secret"), topic);
	}

	@Test
	void certificateUserWithAclsWritesAndReadsOverMutualTls() throws Exception {
		String topic = newTopic();
		broker.grant(acls("bob", topic));
		assertRoundTrip(broker.tlsClient("bob"), topic);
	}

	@Test
	void oauthBearerSubjectWithAclsWritesAndReadsOverSaslSsl() throws Exception {
		String topic = newTopic();
		broker.grant(acls("dave", topic));
		assertRoundTrip(broker.oauthBearerClient("dave"), topic);
	}

	@Test
	void wrongPasswordIsRefusedByAuthentication() {
		assertThatException().isThrownBy(() -> describeCluster(broker.scramClient("alice", "not-her-secret")))
			.withRootCauseInstanceOf(SaslAuthenticationException.class);
	}

	@Test
	void clientWithoutACertificateIsRefusedOnTheTlsListener() {
		Map<String, Object> client = new HashMap<>(broker.tlsClient("carol"));
		client.keySet().removeIf((key) -> key.startsWith("ssl.key"));
		assertThatException().isThrownBy(() -> describeCluster(client))
			.withCauseInstanceOf(SslAuthenticationException.class);
	}

	@Test
	void clientTrustingAnotherAuthorityIsRefused() {
		TestCertificates other = TestCertificates.create(broker.certificates().trustStore().resolveSibling("other"),
				"Another CA");
		Map<String, Object> client = new HashMap<>(broker.scramClient("alice", "alice-secret"));
		client.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, other.trustStore().toString());
		client.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, other.password());
		assertThatException().isThrownBy(() -> describeCluster(client))
			.withCauseInstanceOf(SslAuthenticationException.class);
	}

	@Test
	void userWithoutAclsIsNotAuthorized() {
		String topic = newTopic();
		Map<String, Object> client = new HashMap<>(broker.scramClient("alice", "alice-secret"));
		client.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(client, new StringSerializer(),
				new StringSerializer())) {
			assertThatException().isThrownBy(() -> producer.send(new ProducerRecord<>(topic, "k", "v")).get())
				.withCauseInstanceOf(TopicAuthorizationException.class);
		}
	}

	private static void assertRoundTrip(Map<String, Object> client, String topic) {
		Map<String, Object> producerConfig = new HashMap<>(client);
		producerConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-tx");
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
				new StringSerializer())) {
			producer.initTransactions();
			producer.beginTransaction();
			producer.send(new ProducerRecord<>(topic, "k1", "one"));
			producer.send(new ProducerRecord<>(topic, "k2", "two"));
			producer.commitTransaction();
		}
		Map<String, Object> consumerConfig = new HashMap<>(client);
		consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, topic + "-group");
		consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(),
				new StringDeserializer())) {
			consumer.subscribe(List.of(topic));
			List<String> values = new ArrayList<>();
			await().atMost(Duration.ofSeconds(60))
				.until(() -> {
					consumer.poll(Duration.ofMillis(200)).forEach((record) -> values.add(record.value()));
					return values.size() >= 2;
				});
			assertThat(values).containsExactly("one", "two");
			consumer.commitSync();
		}
	}

	private static String newTopic() {
		String topic = "secured-" + UUID.randomUUID();
		try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
			admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
		}
		catch (InterruptedException | ExecutionException ex) {
			throw new IllegalStateException(ex);
		}
		return topic;
	}

	private static List<AclBinding> acls(String user, String topic) {
		return List.of(allow(user, ResourceType.TOPIC, topic, AclOperation.WRITE),
				allow(user, ResourceType.TOPIC, topic, AclOperation.READ),
				allow(user, ResourceType.GROUP, topic + "-group", AclOperation.READ),
				allow(user, ResourceType.TRANSACTIONAL_ID, topic + "-tx", AclOperation.WRITE));
	}

	private static AclBinding allow(String user, ResourceType type, String name, AclOperation operation) {
		return new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
				new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
	}

	private static void describeCluster(Map<String, Object> client) throws Exception {
		Map<String, Object> config = new HashMap<>(client);
		config.put("default.api.timeout.ms", 15_000);
		config.put("request.timeout.ms", 10_000);
		try (Admin admin = Admin.create(config)) {
			admin.describeCluster().nodes().get();
		}
	}

}
