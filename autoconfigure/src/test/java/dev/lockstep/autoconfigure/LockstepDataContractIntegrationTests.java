package dev.lockstep.autoconfigure;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.test.registry.TestSchemaRegistry;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.WorkerStatus;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Confluent data contracts meet a worker on a real broker: a record whose writer schema
 * carries a rule to run on read (a field encryption) is invalid input, quarantined with
 * the rule's name, never passed on as if it were plaintext; a worker whose output subject
 * carries a rule to run on write does not start, unless that rule is explicitly ignored.
 */
@ExtendWith(SharedKafkaBroker.class)
class LockstepDataContractIntegrationTests {

	private static final String ENCRYPT_ON_READ_AND_WRITE = """
			{"domainRules": [{"name": "encryptPii", "kind": "TRANSFORM", "mode": "WRITEREAD", "type": "ENCRYPT",
			  "tags": ["PII"], "params": {"encrypt.kek.name": "payments-kek"}}]}""";

	private static final String CHECK_ON_WRITE = """
			{"domainRules": [{"name": "amountIsPositive", "kind": "CONDITION", "mode": "WRITE", "type": "CEL",
			  "expr": "message.amount > 0"}]}""";

	private static KafkaBroker broker;

	private static TestSchemaRegistry registry;

	private static String schemaText;

	private final RegistryWorkerFixture topics = new RegistryWorkerFixture(broker);

	@BeforeAll
	static void start(KafkaBroker shared) throws Exception {
		broker = shared;
		registry = TestSchemaRegistry.start();
		schemaText = new String(LockstepDataContractIntegrationTests.class
			.getResourceAsStream("/json-order.schema.json")
			.readAllBytes(), StandardCharsets.UTF_8);
	}

	@AfterAll
	static void stop() {
		registry.close();
	}

	@Test
	void aRecordWrittenWithARuleToRunOnReadIsQuarantinedNamingTheRule() throws Exception {
		long plain = registry.register(this.topics.input + "-value", "JSON", schemaText);
		long encrypted = registry.register(this.topics.input + "-value",
				new RegistrySchema(RegistrySchema.JSON, schemaText, List.of(), null, ENCRYPT_ON_READ_AND_WRITE));
		registry.register(this.topics.output + "-value", "JSON", schemaText);
		try (ConfigurableApplicationContext context = run(Map.of());
				KafkaProducer<String, byte[]> producer = this.topics.producer()) {
			this.topics.send(producer, "order-1", json(plain, "o-1"));
			this.topics.send(producer, "order-2", json(encrypted, "o-2"));
			this.topics.send(producer, "order-3", json(plain, "o-3"));
			List<ConsumerRecord<String, byte[]>> outputs = this.topics.readCommitted(this.topics.output, 2);
			List<ConsumerRecord<String, byte[]>> quarantined = this.topics.readCommitted(this.topics.quarantine, 1);
			assertThat(outputs).extracting(ConsumerRecord::key).containsExactly("order-1", "order-3");
			assertThat(quarantined).extracting(ConsumerRecord::key).containsExactly("order-2");
			assertThat(RegistryWorkerFixture.errorOf(quarantined.get(0)))
				.contains("rule 'encryptPii' (type ENCRYPT, TRANSFORM, mode WRITEREAD, in domainRules)")
				.contains("applies on read");
			assertThat(quarantined.get(0).value()).isEqualTo(json(encrypted, "o-2"));
			assertThat(context.getBean(LockstepWorkers.class).worker("normalizer").state().status())
				.isEqualTo(WorkerStatus.RUNNING);
		}
	}

	@Test
	void aWorkerWhoseOutputSubjectCarriesARuleToRunOnWriteDoesNotStartUnlessTheRuleIsIgnored() throws Exception {
		registry.register(this.topics.input + "-value", "JSON", schemaText);
		registry.register(this.topics.output + "-value",
				new RegistrySchema(RegistrySchema.JSON, schemaText, List.of(), null, CHECK_ON_WRITE));
		assertThatException().isThrownBy(() -> run(Map.of()).close())
			.havingRootCause()
			.withMessageContaining("lockstep.workers.normalizer.output-value")
			.withMessageContaining("subject " + this.topics.output + "-value")
			.withMessageContaining("rule 'amountIsPositive' (type CEL, CONDITION, mode WRITE, in domainRules)");
		try (ConfigurableApplicationContext context = run(Map.of("lockstep.registry.ignored-rules", "amountIsPositive"));
				KafkaProducer<String, byte[]> producer = this.topics.producer()) {
			long plain = registry.register(this.topics.input + "-value", "JSON", schemaText);
			this.topics.send(producer, "order-1", json(plain, "o-1"));
			assertThat(this.topics.readCommitted(this.topics.output, 1)).extracting(ConsumerRecord::key)
				.containsExactly("order-1");
		}
	}

	private ConfigurableApplicationContext run(Map<String, Object> extra) {
		Map<String, Object> properties = this.topics.properties(registry.url(), "registry-json-schema",
				LockstepJsonSchemaIntegrationTests.Order.class);
		properties.put("lockstep.workers.normalizer.output-value.schema", "classpath:json-order.schema.json");
		properties.putAll(extra);
		return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE).properties(properties).run();
	}

	private static byte[] json(long id, String orderId) {
		String json = "{\"id\":\"" + orderId + "\",\"status\":\"paid\",\"amount\":" + new BigDecimal("1.50") + "}";
		return WireFormat.frame(id, json.getBytes(StandardCharsets.UTF_8), 1000);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		@Bean
		ValueTransformer<LockstepJsonSchemaIntegrationTests.Order, LockstepJsonSchemaIntegrationTests.Order> normalizer() {
			return (order) -> order;
		}

	}

}
