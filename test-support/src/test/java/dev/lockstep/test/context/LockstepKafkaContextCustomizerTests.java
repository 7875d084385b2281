package dev.lockstep.test.context;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link LockstepKafkaBroker} with {@code secured = true}: the application's properties
 * reach the secured broker as a user holding exactly the listed ACLs, not as a super user.
 */
class LockstepKafkaContextCustomizerTests {

	@Test
	void theApplicationsUserMayDoWhatItsWorkerAclsAllowAndNothingElse() throws Exception {
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			new LockstepKafkaContextCustomizerFactory().createContextCustomizer(SecuredTest.class, List.of())
				.customizeContext(context, null);
			context.refresh();
			try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerOf(context.getEnvironment()))) {
				// WRITE on the worker's destination: granted.
				producer.send(new ProducerRecord<>("payments-normalized", new byte[] { 1 })).get(30, TimeUnit.SECONDS);
				// Its input is READ only: a super user could write it, this user may not.
				assertThatExceptionOfType(ExecutionException.class)
					.isThrownBy(() -> producer.send(new ProducerRecord<>("payments", new byte[] { 1 }))
						.get(30, TimeUnit.SECONDS))
					.withCauseInstanceOf(TopicAuthorizationException.class);
			}
		}
	}

	@Test
	void aclsWithoutASecuredBrokerAreRefused() {
		assertThatIllegalStateException()
			.isThrownBy(() -> new LockstepKafkaContextCustomizerFactory()
				.createContextCustomizer(AclsWithoutSecurity.class, List.of()))
			.withMessageContaining("acls without secured = true");
	}

	/** The Kafka client properties the customizer gave the application, as a producer's. */
	private static Map<String, Object> producerOf(Environment environment) {
		Map<String, Object> client = new HashMap<>();
		client.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, environment.getProperty("spring.kafka.bootstrap-servers"));
		client.put("security.protocol", environment.getProperty("spring.kafka.security.protocol"));
		client.put("sasl.mechanism", environment.getProperty("spring.kafka.properties.sasl.mechanism"));
		client.put("sasl.jaas.config", environment.getProperty("spring.kafka.properties.sasl.jaas.config"));
		client.put("ssl.truststore.type", environment.getProperty("spring.kafka.ssl.trust-store-type"));
		client.put("ssl.truststore.location",
				environment.getProperty("spring.kafka.ssl.trust-store-location").substring("file:".length()));
		client.put("ssl.truststore.password", environment.getProperty("spring.kafka.ssl.trust-store-password"));
		client.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
		client.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
		client.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
		return client;
	}

	@LockstepKafkaBroker(topics = { "payments", "payments-normalized" }, secured = true,
			acls = @WorkerAcl(read = "payments", group = "payment-status", write = "payments-normalized",
					transactionalId = "payment-status"))
	static class SecuredTest {

	}

	@LockstepKafkaBroker(topics = "payments", acls = @WorkerAcl(read = "payments", group = "payment-status",
			write = "payments-normalized", transactionalId = "payment-status"))
	static class AclsWithoutSecurity {

	}

}
