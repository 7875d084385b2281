package dev.lockstep.worker;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.registry.kafka.RegistryAvroDeserializer;
import dev.lockstep.registry.kafka.RegistryAvroSerializer;
import dev.lockstep.registry.kafka.RawAvroDeserializer;
import dev.lockstep.registry.kafka.RawAvroSerializer;
import dev.lockstep.registry.avro.RawAvroCodec;
import dev.lockstep.test.kafka.KafkaBrokerProcess;
import dev.lockstep.test.registry.TestSchemaRegistry;
import dev.lockstep.worker.WorkerSettings.Recovery;
import dev.lockstep.worker.WorkerSettings.Codecs;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import dev.lockstep.worker.test.Order;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The worker runtime under faults, against a broker running as its own process (so it
 * can be paused) and an in-test schema registry (so it can be stopped).
 */
class WorkerFaultTests {

	private static KafkaBrokerProcess broker;

	private static KafkaFixture kafka;

	private static final RawAvroCodec<Order> ORDERS = new RawAvroCodec<>(Order.class);

	private final String input = "orders-" + UUID.randomUUID();

	private final String output = "normalized-" + UUID.randomUUID();

	private final String group = "group-" + UUID.randomUUID();

	private final String quarantine = "quarantine-" + UUID.randomUUID();

	private final List<Worker> workers = new ArrayList<>();

	@BeforeAll
	static void startBroker() {
		broker = KafkaBrokerProcess.start();
		kafka = new KafkaFixture(broker);
	}

	@AfterAll
	static void stopBroker() {
		broker.close();
	}

	@AfterEach
	void stopWorkers() {
		broker.resume();
		this.workers.forEach(Worker::stop);
	}

	@Test
	void concurrencyTwoOverFourPartitionsWithInstancesJoiningAndLeavingGivesExactOutput() {
		kafka.createTopics(4, this.input, this.output);
		kafka.produce(orders(0, 1000));
		Worker first = start(settings("tx-a", 2, new Codecs(new StringDeserializer(),
				new RawAvroDeserializer<>(Order.class), new StringSerializer(), new RawAvroSerializer<>(Order.class), WorkerTests.INVALID_DATA)));
		await().atMost(Duration.ofSeconds(60)).until(() -> first.state().committedRecords() >= 300);
		Worker second = start(settings("tx-b", 1, new Codecs(new StringDeserializer(),
				new RawAvroDeserializer<>(Order.class), new StringSerializer(), new RawAvroSerializer<>(Order.class), WorkerTests.INVALID_DATA)));
		kafka.produce(orders(1000, 2000));
		await().atMost(Duration.ofSeconds(60))
			.until(() -> first.state().committedRecords() + second.state().committedRecords() >= 1500);
		assertThat(second.stop()).isTrue();
		await().atMost(Duration.ofSeconds(90))
			.until(() -> first.state().committedRecords() + second.state().committedRecords() == 2000);
		assertExactOutput(2000);
	}

	@Test
	void registryOutageIsRetriedNeverBlockedAndLosesNothing() {
		try (TestSchemaRegistry registry = TestSchemaRegistry.start()) {
			registry.register(this.input + "-value", Order.getClassSchema());
			registry.register(this.output + "-value", Order.getClassSchema());
			Map<String, Object> serde = Map.of("schema.registry.url", registry.url(), "lockstep.avro.value.type",
					Order.class.getName(), "lockstep.registry.retries", 0, "lockstep.registry.timeout.ms", 1000);
			RegistryAvroSerializer<Order> serializer = new RegistryAvroSerializer<>();
			serializer.configure(serde, false);
			kafka.createTopics(1, this.input, this.output);
			List<ProducerRecord<byte[], byte[]>> framed = new ArrayList<>();
			for (int i = 1; i <= 50; i++) {
				framed.add(new ProducerRecord<>(this.input, bytes("order-" + i),
						serializer.serialize(this.input, new Order((long) i, "paid", (long) i))));
			}
			kafka.produce(framed);
			registry.stop();
			RegistryAvroDeserializer<Order> valueDeserializer = new RegistryAvroDeserializer<>();
			valueDeserializer.configure(serde, false);
			RegistryAvroSerializer<Order> valueSerializer = new RegistryAvroSerializer<>();
			valueSerializer.configure(serde, false);
			Worker worker = start(settings("tx", 1,
					new Codecs(new StringDeserializer(), valueDeserializer, new StringSerializer(), valueSerializer,
							WorkerTests.INVALID_DATA)));
			await().until(() -> worker.state().slots().get(0).recentErrors().size() >= 3);
			assertThat(worker.state().status()).isIn(WorkerStatus.RUNNING, WorkerStatus.STALLED);
			assertThat(worker.state().committedRecords()).isZero();
			assertThat(kafka.committedOffsets(this.group)).isEmpty();
			registry.restart();
			await().atMost(Duration.ofSeconds(60)).until(() -> worker.state().committedRecords() == 50);
			assertThat(kafka.readCommitted(this.output, 50)).extracting(WorkerTests::key).doesNotHaveDuplicates()
				.hasSize(50);
		}
	}

	/**
	 * Issue 12, defect 1: raw-Avro input (no registry), registry-Avro output, quarantine
	 * policy, registry down before the first output's schema id is resolved. Before the
	 * failure model, every record went to the quarantine topic as "cannot be encoded".
	 */
	@Test
	void outputRegistryOutageUnderQuarantineQuarantinesNothingAndCommitsNothingWhileDown() {
		try (TestSchemaRegistry registry = TestSchemaRegistry.start()) {
			registry.register(this.output + "-value", Order.getClassSchema());
			Map<String, Object> serde = Map.of("schema.registry.url", registry.url(), "lockstep.registry.retries", 0,
					"lockstep.registry.timeout.ms", 1000);
			kafka.createTopics(1, this.input, this.output, this.quarantine);
			kafka.produce(orders(0, 30));
			registry.stop();
			RegistryAvroSerializer<Order> valueSerializer = new RegistryAvroSerializer<>();
			valueSerializer.configure(serde, false);
			WorkerSettings base = settings("tx", 1, new Codecs(new StringDeserializer(),
					new RawAvroDeserializer<>(Order.class), new StringSerializer(), valueSerializer,
					WorkerTests.INVALID_DATA));
			WorkerSettings settings = base.toBuilder()
				.invalidInput(new InvalidInputPolicy(Mode.QUARANTINE, this.quarantine))
				.build();
			Worker worker = start(settings);
			await().atMost(Duration.ofSeconds(60))
				.until(() -> worker.state().slots().get(0).recentErrors().size() >= 3);
			assertThat(worker.state().committedRecords()).isZero();
			assertThat(kafka.committedOffsets(this.group)).isEmpty();
			registry.restart();
			await().atMost(Duration.ofSeconds(60)).until(() -> worker.state().committedRecords() == 30);
			assertThat(kafka.readCommitted(this.output, 30)).extracting(WorkerTests::key).doesNotHaveDuplicates()
				.hasSize(30);
			assertThat(kafka.readCommitted(this.quarantine, 0)).isEmpty();
		}
	}

	/**
	 * Issue 12, defect 2: a processor call (as a GC pause or a frozen VM) outlasts the
	 * transaction timeout; the coordinator aborts the transaction and bumps the epoch
	 * (its check runs every 10 s). Before the failure model, the slot mostly met
	 * {@code ProducerFencedException} and stopped FENCED with no other instance alive.
	 */
	@Test
	void processorStalledPastTheTransactionTimeoutRecoversWithoutBeingFenced() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(orders(0, 50));
		AtomicInteger calls = new AtomicInteger();
		WorkerSettings base = settings("tx", 1, new Codecs(new StringDeserializer(),
				new RawAvroDeserializer<>(Order.class), new StringSerializer(), new RawAvroSerializer<>(Order.class),
				WorkerTests.INVALID_DATA));
		WorkerSettings settings = base.toBuilder()
			.transaction(new TransactionSizing(500, Duration.ofMillis(100), Duration.ofSeconds(2)))
			.build();
		Worker worker = start(settings, RecordProcessor.of((Order order) -> {
			if (calls.incrementAndGet() == 5) {
				await().pollDelay(Duration.ofSeconds(16)).atMost(Duration.ofSeconds(20)).until(() -> true);
			}
			return WorkerTests.normalize(order);
		}));
		await().atMost(Duration.ofSeconds(90)).until(() -> worker.state().committedRecords() == 50);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertExactOutput(50);
	}

	@Test
	void commitThatTimesOutWhileTheBrokerIsPausedIsRetriedAndOutputStaysExact() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(orders(0, 50));
		AtomicInteger processed = new AtomicInteger();
		Map<String, Object> producer = new HashMap<>(kafka.clientProperties());
		producer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 2000);
		producer.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1500);
		producer.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 3000);
		WorkerSettings base = settings("tx", 1, new Codecs(new StringDeserializer(),
				new RawAvroDeserializer<>(Order.class), new StringSerializer(), new RawAvroSerializer<>(Order.class), WorkerTests.INVALID_DATA));
		WorkerSettings settings = base.toBuilder()
			.producerProperties(producer)
			.transaction(new TransactionSizing(500, Duration.ofSeconds(3), Duration.ofSeconds(60)))
			.build();
		Worker worker = start(settings, RecordProcessor.of((Order order) -> {
			processed.incrementAndGet();
			return WorkerTests.normalize(order);
		}));
		await().atMost(Duration.ofSeconds(60)).until(() -> processed.get() == 50);
		broker.pause();
		await().atMost(Duration.ofSeconds(60))
			.until(() -> worker.state().slots().get(0).recentErrors().stream().anyMatch((e) -> e.contains("timed out, retrying")));
		assertThat(worker.state().committedRecords()).isZero();
		broker.resume();
		await().atMost(Duration.ofSeconds(90)).until(() -> worker.state().committedRecords() == 50);
		assertExactOutput(50);
	}

	@Test
	void outputTheBrokerRefusesIsNeverCommittedAndTheErrorNamesTheFailedSend() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(orders(0, 20));
		Map<String, Object> producer = new HashMap<>(kafka.clientProperties());
		// Every output record is larger than the producer may send.
		producer.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 64);
		WorkerSettings base = settings("tx", 1, new Codecs(new StringDeserializer(),
				new RawAvroDeserializer<>(Order.class), new StringSerializer(), new RawAvroSerializer<>(Order.class), WorkerTests.INVALID_DATA));
		WorkerSettings settings = base.toBuilder().producerProperties(producer).build();
		Worker worker = start(settings);
		await().atMost(Duration.ofSeconds(60))
			.until(() -> worker.state().slots().get(0).recentErrors().stream()
				.filter((error) -> error.contains("RecordTooLargeException"))
				.count() >= 2);
		assertThat(worker.state().committedRecords()).isZero();
		assertThat(kafka.committedOffsets(this.group)).isEmpty();
		assertThat(kafka.readCommitted(this.output, 0)).isEmpty();
	}

	private void assertExactOutput(int count) {
		List<ConsumerRecord<byte[], byte[]>> out = kafka.readCommitted(this.output, count);
		assertThat(out).extracting(WorkerTests::key).doesNotHaveDuplicates().hasSize(count);
		assertThat(out).allSatisfy((record) -> assertThat(ORDERS.decode(record.value()).getStatus()).isEqualTo("PAID"));
	}

	private List<ProducerRecord<byte[], byte[]>> orders(int from, int to) {
		List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
		for (int i = from; i < to; i++) {
			records.add(new ProducerRecord<>(this.input, bytes("order-" + i),
					ORDERS.encode(new Order((long) i + 1, (i % 2 == 0) ? "paid" : "Paid", (long) i))));
		}
		return records;
	}

	private Worker start(WorkerSettings settings) {
		return start(settings, RecordProcessor.of(WorkerTests::normalize));
	}

	private Worker start(WorkerSettings settings, RecordProcessor<?, ?> processor) {
		Worker worker = new Worker(settings, processor);
		this.workers.add(worker);
		worker.start();
		return worker;
	}

	private WorkerSettings settings(String transactionalId, int concurrency, Codecs codecs) {
		Map<String, Object> consumer = new HashMap<>(kafka.clientProperties());
		consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		return WorkerSettings.builder("fault")
			.sourceTopics(this.input)
			.destination(this.output)
			.groupId(this.group)
			.transactionalId(transactionalId + "-" + this.group)
			.instance(InstanceIdentity.configured("i", "test"))
			.consumerProperties(consumer)
			.producerProperties(kafka.clientProperties())
			.codecs(codecs)
			.concurrency(concurrency)
			.transaction(new TransactionSizing(500, Duration.ofMillis(100)))
			.recovery(new Recovery(Duration.ofMillis(100), Duration.ofSeconds(1)))
			.build();
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
