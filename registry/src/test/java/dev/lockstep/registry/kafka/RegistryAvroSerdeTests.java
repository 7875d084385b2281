package dev.lockstep.registry.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.test.Order;
import dev.lockstep.registry.test.OrderV2;
import dev.lockstep.test.kafka.InJvmKafkaBroker;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class RegistryAvroSerdeTests {

	private final TestSchemaRegistry registry = TestSchemaRegistry.start();

	private final Order order = new Order(1L, "PAID", 12500L);

	@AfterEach
	void stopRegistry() {
		this.registry.close();
	}

	private Map<String, Object> configs() {
		Map<String, Object> configs = new HashMap<>();
		configs.put("schema.registry.url", this.registry.url());
		configs.put("lockstep.registry.retries", 0);
		return configs;
	}

	@Test
	void serializerLooksUpTheTopicSubjectOnceAndNeverRegistersByDefault() {
		long id = this.registry.register("orders-value", Order.getClassSchema());
		RegistryAvroSerializer<Order> serializer = new RegistryAvroSerializer<>();
		serializer.configure(configs(), false);
		for (int i = 0; i < 10; i++) {
			assertThat(serializer.serialize("orders", this.order)).startsWith(0, 0, 0, 0, (byte) id);
		}
		assertThat(this.registry.requestCount("POST /subjects/orders-value")).isEqualTo(1);
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> serializer.serialize("other", this.order))
			.withMessageContaining("under subject other-value");
		assertThat(this.registry.requestCount("POST /subjects/other-value/versions")).isZero();
	}

	@Test
	void autoRegisterAndSubjectStrategiesChooseTheSubject() {
		Map<String, Object> configs = configs();
		configs.put("auto.register.schemas", true);
		configs.put("key.subject.name.strategy", "io.confluent.kafka.serializers.subject.RecordNameStrategy");
		configs.put("value.subject.name.strategy", "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy");
		RegistryAvroSerializer<Order> keys = new RegistryAvroSerializer<>();
		keys.configure(configs, true);
		RegistryAvroSerializer<Order> values = new RegistryAvroSerializer<>();
		values.configure(configs, false);
		keys.serialize("orders", this.order);
		values.serialize("orders", this.order);
		assertThat(this.registry.requestCount("POST /subjects/dev.lockstep.registry.test.Order/versions")).isEqualTo(1);
		assertThat(this.registry.requestCount("POST /subjects/orders-dev.lockstep.registry.test.Order/versions"))
			.isEqualTo(1);
	}

	@Test
	void deserializerReturnsGenericRecordsUnlessAskedForSpecificOnes() {
		this.registry.register("orders-value", Order.getClassSchema());
		RegistryAvroSerde<Object> serde = new RegistryAvroSerde<>();
		serde.configure(configs(), false);
		byte[] framed = serde.serializer().serialize("orders", this.order);
		assertThat(serde.deserializer().deserialize("orders", framed)).isInstanceOf(GenericRecord.class);

		Map<String, Object> specific = configs();
		specific.put("specific.avro.reader", true);
		RegistryAvroDeserializer<Object> byName = new RegistryAvroDeserializer<>();
		byName.configure(specific, false);
		assertThat(byName.deserialize("orders", framed)).isEqualTo(this.order);

		Map<String, Object> typed = configs();
		typed.put("lockstep.avro.value.type", OrderV2.class.getName());
		RegistryAvroDeserializer<OrderV2> evolved = new RegistryAvroDeserializer<>();
		evolved.configure(typed, false);
		assertThat(evolved.deserialize("orders", framed).getCurrency()).isEqualTo("EUR");
		assertThat(evolved.deserialize("orders", null)).isNull();
		assertThat(serde.serializer().serialize("orders", null)).isNull();
	}

	@Test
	void readerClassMustBeAGeneratedRecord() {
		Map<String, Object> configs = configs();
		configs.put("lockstep.avro.value.type", "java.lang.ProcessBuilder");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> new RegistryAvroDeserializer<>().configure(configs, false))
			.withMessageContaining("not a generated Avro record");
	}

	@Test
	void sharedClientIsUsedByBothHalves() {
		this.registry.register("orders-value", Order.getClassSchema());
		RegistryClient client = RegistryClient.builder(this.registry.url()).build();
		RegistryAvroSerde<Object> serde = new RegistryAvroSerde<>(client);
		Map<String, Object> configs = new HashMap<>();
		configs.put("lockstep.avro.value.type", Order.class);
		serde.configure(configs, false);
		assertThat(serde.deserializer().deserialize("orders", serde.serializer().serialize("orders", this.order)))
			.isEqualTo(this.order);
	}

	@Test
	void manyThreadsSerializingThroughOneSerializerMakeOneRequestPerSubject() throws Exception {
		this.registry.register("orders-value", Order.getClassSchema());
		this.registry.register("refunds-value", Order.getClassSchema());
		RegistryAvroSerializer<Order> serializer = new RegistryAvroSerializer<>();
		serializer.configure(configs(), false);
		RegistryAvroDeserializer<Order> deserializer = new RegistryAvroDeserializer<>();
		Map<String, Object> typed = configs();
		typed.put("lockstep.avro.value.type", Order.class.getName());
		deserializer.configure(typed, false);
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> results = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				String topic = (t % 2 == 0) ? "orders" : "refunds";
				long base = t * 10_000L;
				results.add(threads.submit(() -> {
					for (long i = 0; i < 2_000; i++) {
						Order written = new Order(base + i, "PAID", i);
						assertThat(deserializer.deserialize(topic, serializer.serialize(topic, written)))
							.isEqualTo(written);
					}
				}));
			}
			for (Future<?> result : results) {
				result.get();
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(this.registry.requestCount("POST /subjects/orders-value")).isEqualTo(1);
		assertThat(this.registry.requestCount("POST /subjects/refunds-value")).isEqualTo(1);
		// Once by the serializer's client (its data contract), once by the deserializer's.
		assertThat(this.registry.requestCount("GET /schemas/ids/1")).isEqualTo(2);
	}

	@Test
	void configuredByClassNameOnRealKafkaClients() {
		this.registry.register("orders-value", Order.getClassSchema());
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			Properties producerProps = new Properties();
			producerProps.putAll(configs());
			producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
			producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
			producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, RegistryAvroSerializer.class.getName());
			try (KafkaProducer<String, Order> producer = new KafkaProducer<>(producerProps)) {
				producer.send(new ProducerRecord<>("orders", "order-1", this.order)).get();
				producer.send(new ProducerRecord<>("orders", "order-3", null)).get();
			}
			catch (Exception ex) {
				throw new AssertionError(ex);
			}
			Properties consumerProps = new Properties();
			consumerProps.putAll(configs());
			consumerProps.put("specific.avro.reader", "true");
			consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
			consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
			consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "serde-test");
			consumerProps.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
			consumerProps.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, RegistryAvroDeserializer.class.getName());
			try (KafkaConsumer<String, Order> consumer = new KafkaConsumer<>(consumerProps)) {
				consumer.subscribe(List.of("orders"));
				List<ConsumerRecord<String, Order>> records = new ArrayList<>();
				await().atMost(Duration.ofSeconds(60)).until(() -> {
					consumer.poll(Duration.ofMillis(200)).forEach(records::add);
					return records.size() >= 2;
				});
				assertThat(records.get(0).value()).isEqualTo(this.order);
				assertThat(records.get(1).value()).isNull();
			}
		}
	}

	@Test
	void malformedBytesAreInvalidDataForTheConsumer() {
		RegistryAvroDeserializer<Object> deserializer = new RegistryAvroDeserializer<>();
		deserializer.configure(configs(), false);
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> deserializer.deserialize("orders", new byte[] { 9, 9, 9 }));
	}

}
