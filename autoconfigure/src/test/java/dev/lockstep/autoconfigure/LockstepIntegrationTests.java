package dev.lockstep.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lockstep.registry.avro.RawAvroCodec;
import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.WorkerStatus;
import dev.lockstep.worker.test.Order;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * The whole auto-configuration against a real broker: topics created, the seed's orders
 * written by a named transactional producer, normalized by a worker declared in
 * properties, and read back by a {@code @KafkaListener} on Lockstep's transactional
 * batch container factory.
 */
@ExtendWith(SharedKafkaBroker.class)
class LockstepIntegrationTests {

	private static KafkaBroker broker;

	@BeforeAll
	static void connect(KafkaBroker shared) {
		broker = shared;
	}

	@Test
	@SuppressWarnings("unchecked")
	void seedNormalizeAndListenThroughTheAutoConfiguration() {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(properties())
			.run()) {
			KafkaTemplate<String, Order> orders = context.getBean("orders", KafkaTemplate.class);
			orders.executeInTransaction((template) -> {
				template.send(record("order-1", new Order(1L, "paid", 12500L)));
				template.send(record("order-2", new Order(2L, "Refunded", 7800L)));
				template.send(record("order-3", null));
				return null;
			});
			Received received = context.getBean(Received.class);
			await().atMost(Duration.ofSeconds(60)).until(() -> received.records.size() >= 3);
			assertThat(received.records).extracting(ConsumerRecord::key).containsExactly("order-1", "order-2", "order-3");
			RawAvroCodec<Order> codec = new RawAvroCodec<>(Order.class);
			assertThat(codec.decode(received.records.get(0).value())).isEqualTo(new Order(1L, "PAID", 12500L));
			assertThat(codec.decode(received.records.get(1).value())).isEqualTo(new Order(2L, "REFUNDED", 7800L));
			assertThat(received.records.get(2).value()).isNull();
			assertThat(new String(received.records.get(0).headers().lastHeader("source").value(), StandardCharsets.UTF_8))
				.isEqualTo("test");
			LockstepWorkers workers = context.getBean(LockstepWorkers.class);
			assertThat(workers.worker("normalizer").state().status()).isEqualTo(WorkerStatus.RUNNING);
			assertThat(workers.worker("normalizer").state().committedRecords()).isEqualTo(3);
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void namedProducerSurfacesDeliveryFailures() {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(properties())
			.properties("lockstep.producers.orders.properties.max.request.size=200",
					"lockstep.workers.normalizer.auto-startup=false")
			.run()) {
			KafkaTemplate<String, Order> orders = context.getBean("orders", KafkaTemplate.class);
			assertThatException().isThrownBy(() -> orders.executeInTransaction((template) -> {
				template.send(record("big", new Order(1L, "x".repeat(1000), 1L)));
				return null;
			}));
		}
	}

	private static ProducerRecord<String, Order> record(String key, Order order) {
		RecordHeaders headers = new RecordHeaders();
		headers.add("source", "test".getBytes(StandardCharsets.UTF_8));
		return new ProducerRecord<>("it-orders", null, key, order, headers);
	}

	private static Map<String, Object> properties() {
		return Map.ofEntries(Map.entry("spring.kafka.bootstrap-servers", broker.bootstrapServers()),
				Map.entry("spring.kafka.consumer.auto-offset-reset", "earliest"),
				Map.entry("spring.kafka.consumer.key-deserializer",
						"org.apache.kafka.common.serialization.StringDeserializer"),
				Map.entry("spring.kafka.consumer.value-deserializer",
						"org.apache.kafka.common.serialization.ByteArrayDeserializer"),
				Map.entry("lockstep.topics.it-orders.partitions", 1),
				Map.entry("lockstep.topics.it-normalized.partitions", 1),
				Map.entry("lockstep.producers.orders.key.codec", "string"),
				Map.entry("lockstep.producers.orders.value.codec", "raw-avro"),
				Map.entry("lockstep.producers.orders.value.type", Order.class.getName()),
				Map.entry("lockstep.workers.normalizer.source-topics", "it-orders"),
				Map.entry("lockstep.workers.normalizer.destination", "it-normalized"),
				Map.entry("lockstep.workers.normalizer.group-id", "it-normalizers"),
				Map.entry("lockstep.workers.normalizer.transactional-id", "it-normalizer"),
				Map.entry("lockstep.workers.normalizer.key.codec", "string"),
				Map.entry("lockstep.workers.normalizer.value.codec", "raw-avro"),
				Map.entry("lockstep.workers.normalizer.value.type", Order.class.getName()));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		@Bean
		ValueTransformer<Order, Order> normalizer() {
			return (order) -> new Order(order.getId(), order.getStatus().toUpperCase(Locale.ROOT),
					order.getAmountCents());
		}

		@Bean
		Received received() {
			return new Received();
		}

	}

	static class Received {

		final List<ConsumerRecord<String, byte[]>> records = new CopyOnWriteArrayList<>();

		@KafkaListener(topics = "it-normalized", groupId = "it-listener",
				containerFactory = "lockstepListenerContainerFactory")
		void receive(List<ConsumerRecord<String, byte[]>> batch) {
			this.records.addAll(batch);
		}

	}

}
