package dev.lockstep.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lockstep's transactional listener container factory under the consumer group protocol
 * (KIP-848) on a real broker: a {@code @KafkaListener} that writes each input's output in
 * the container's transaction stays exactly-once while a second application instance
 * joins the group and the first leaves, with input arriving all along. (Under the classic
 * protocol the same passes; {@code LockstepIntegrationTests} covers the factory there.)
 */
@ExtendWith(SharedKafkaBroker.class)
class LockstepListenerGroupProtocolTests {

	private static final Duration WAIT = Duration.ofMinutes(2);

	private static KafkaBroker broker;

	private final String input = "lp-in-" + UUID.randomUUID();

	private final String output = "lp-out-" + UUID.randomUUID();

	private final String group = "lp-group-" + UUID.randomUUID();

	private final AtomicInteger produced = new AtomicInteger();

	@BeforeAll
	static void connect(KafkaBroker shared) {
		broker = shared;
	}

	@Test
	void listenerStaysExactlyOnceUnderTheConsumerProtocolWhileInstancesJoinAndLeaveTheGroup() throws Exception {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
			admin.createTopics(List.of(new NewTopic(this.input, 4, (short) 1), new NewTopic(this.output, 4, (short) 1)))
				.all()
				.get();
			ConfigurableApplicationContext first = start("a");
			try {
				await().atMost(WAIT).until(() -> feed() && committed(admin) > 0);
				try (ConfigurableApplicationContext second = start("b")) {
					// Both instances commit: the group was rebalanced between them.
					await().atMost(WAIT)
						.until(() -> feed() && first.getBean(Upper.class).batches.get() > 0
								&& second.getBean(Upper.class).batches.get() > 0 && members(admin).size() == 2);
					ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(this.group))
						.all()
						.get()
						.get(this.group);
					assertThat(group.type()).isEqualTo(GroupType.CONSUMER);
					// The first leaves: its partitions move to the second, which goes on.
					Upper secondUpper = second.getBean(Upper.class);
					first.close();
					int before = secondUpper.batches.get();
					await().atMost(WAIT).until(() -> feed() && secondUpper.batches.get() > before + 2);
					await().atMost(WAIT).until(() -> committed(admin) == this.produced.get());
				}
			}
			finally {
				first.close();
			}
		}
		List<String> keys = readCommittedKeys();
		assertThat(keys).hasSize(this.produced.get());
		assertThat(keys).doesNotHaveDuplicates();
	}

	private ConfigurableApplicationContext start(String instance) {
		Map<String, Object> properties = new HashMap<>(Map.of("spring.kafka.bootstrap-servers", broker.bootstrapServers(),
				"spring.kafka.consumer.auto-offset-reset", "earliest", "spring.kafka.consumer.key-deserializer",
				StringDeserializer.class.getName(), "spring.kafka.consumer.value-deserializer",
				StringDeserializer.class.getName(), "spring.kafka.producer.key-serializer",
				StringSerializer.class.getName(), "spring.kafka.producer.value-serializer",
				StringSerializer.class.getName(), "lockstep.listener.transaction-id-prefix",
				"lp-" + this.group + "-" + instance + "-", "lp.input", this.input, "lp.output", this.output,
				"lp.group", this.group));
		properties.put("spring.kafka.consumer.properties.group.protocol", "consumer");
		return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE).properties(properties).run();
	}

	/** Produce the next 20 inputs, keyed by their number; true, for use in a wait's condition. */
	private boolean feed() {
		Properties props = new Properties();
		props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
				new StringSerializer())) {
			for (int i = 0; i < 20; i++) {
				String key = Integer.toString(this.produced.incrementAndGet());
				producer.send(new ProducerRecord<>(this.input, key, "value-" + key));
			}
			producer.flush();
		}
		return true;
	}

	private long committed(Admin admin) throws Exception {
		Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(this.group)
			.partitionsToOffsetAndMetadata()
			.get();
		return offsets.values().stream().filter((offset) -> offset != null).mapToLong(OffsetAndMetadata::offset).sum();
	}

	private List<?> members(Admin admin) throws Exception {
		return List.copyOf(admin.describeConsumerGroups(List.of(this.group)).all().get().get(this.group).members());
	}

	private List<String> readCommittedKeys() {
		Properties props = new Properties();
		props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
		props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		props.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID());
		List<String> keys = new ArrayList<>();
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
				new StringDeserializer())) {
			consumer.subscribe(List.of(this.output));
			await().atMost(WAIT).until(() -> {
				for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
					assertThat(record.value()).isEqualTo("VALUE-" + record.key());
					keys.add(record.key());
				}
				return keys.size() >= this.produced.get();
			});
			// Anything more would be a duplicate.
			consumer.poll(Duration.ofSeconds(1)).forEach((record) -> keys.add(record.key()));
		}
		return keys;
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		@Bean
		Upper upper(@Qualifier("lockstepListenerProducerFactory") ProducerFactory<Object, Object> producerFactory,
				@Value("${lp.output}") String output) {
			return new Upper(new KafkaTemplate<>(producerFactory), output);
		}

	}

	/** Upper-cases each input value into the output topic, inside the container's transaction. */
	static class Upper {

		final AtomicInteger batches = new AtomicInteger();

		private final KafkaTemplate<Object, Object> template;

		private final String output;

		Upper(KafkaTemplate<Object, Object> template, String output) {
			this.template = template;
			this.output = output;
		}

		@KafkaListener(topics = "${lp.input}", groupId = "${lp.group}",
				containerFactory = "lockstepListenerContainerFactory")
		void onBatch(List<ConsumerRecord<String, String>> batch) {
			for (ConsumerRecord<String, String> record : batch) {
				this.template.send(this.output, record.key(), record.value().toUpperCase(Locale.ROOT));
			}
			this.batches.incrementAndGet();
		}

	}

}
