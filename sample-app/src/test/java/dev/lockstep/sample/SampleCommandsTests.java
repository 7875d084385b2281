package dev.lockstep.sample;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import dev.lockstep.registry.avro.RawAvroCodec;
import dev.lockstep.sample.SampleApplication.Command;
import dev.lockstep.test.kafka.InJvmKafkaBroker;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Each command of the sample against a real broker, checking what it prints and its exit
 * code, as an operator running the jar would.
 */
@ExtendWith(OutputCaptureExtension.class)
class SampleCommandsTests {

	private final InJvmKafkaBroker broker = InJvmKafkaBroker.start();

	@AfterEach
	void stopBroker() {
		this.broker.close();
	}

	private int run(Command command, String... extra) {
		List<String> args = new ArrayList<>(List.of("--spring.kafka.bootstrap-servers=" + this.broker.bootstrapServers()));
		args.addAll(List.of(extra));
		return SampleApplication.run(command, args.toArray(String[]::new));
	}

	@Test
	void seedTransformVerifyPrintTheCookbooksLines(CapturedOutput output) {
		assertThat(run(Command.SEED)).isZero();
		assertThat(run(Command.TRANSFORM)).isZero();
		assertThat(run(Command.VERIFY)).isZero();
		assertThat(output.getOut()).containsSubsequence("seeded 3\n", "committed 3\n",
				"verified 2 orders and 1 tombstone\n");
		assertThat(committedOffset()).isEqualTo(3);
	}

	@Test
	void secondTransformTimesOutCleanlyWithoutDuplicatingOutput(CapturedOutput output) {
		assertThat(run(Command.SEED)).isZero();
		assertThat(run(Command.TRANSFORM)).isZero();
		assertThat(run(Command.TRANSFORM, "--lockstep.workers.normalizer.idle-timeout=3s")).isEqualTo(1);
		assertThat(output.getErr()).contains("transform failed: no input for PT3S (input deadline exceeded)");
		assertThat(run(Command.VERIFY)).isZero();
		assertThat(readOutput()).hasSize(3);
	}

	@Test
	void verifyFailsWithTheReasonWhenOutputIsMissing(CapturedOutput output) {
		assertThat(run(Command.SEED)).isZero();
		createOutputTopicIfMissing();
		assertThat(run(Command.VERIFY, "--sample.verify-deadline=3s")).isEqualTo(1);
		assertThat(output.getErr()).contains("verify failed: input deadline exceeded: 0 output records after PT3S");
	}

	@Test
	void invalidOrderBlocksTheWorkerWithoutCommittingPastIt(CapturedOutput output) {
		RawAvroCodec<Order> codec = new RawAvroCodec<>(Order.class);
		produce(List.of(new ProducerRecord<>("cookbook-orders", bytes("order-1"), codec.encode(new Order(1L, "paid", 1L))),
				new ProducerRecord<>("cookbook-orders", bytes("order-2"), codec.encode(new Order(2L, "SHIPPED", 2L))),
				new ProducerRecord<>("cookbook-orders", bytes("order-3"), codec.encode(new Order(3L, "paid", 3L)))));
		assertThat(run(Command.TRANSFORM)).isEqualTo(1);
		assertThat(output.getErr()).contains("transform failed: blocked at cookbook-orders-0@1: invalid order 2 (status SHIPPED")
			.contains("nothing was committed past it");
		assertThat(committedOffset()).isEqualTo(1);
		assertThat(readOutput()).hasSize(1);
	}

	@Test
	void redriveSendsTheQuarantinedOrdersBackToTheInputOnce(CapturedOutput output) {
		String[] quarantine = { "--lockstep.workers.normalizer.invalid-input.policy=quarantine",
				"--lockstep.workers.normalizer.invalid-input.quarantine-topic=cookbook-orders-quarantine",
				"--lockstep.topics.cookbook-orders-quarantine.partitions=1" };
		RawAvroCodec<Order> codec = new RawAvroCodec<>(Order.class);
		produce(List.of(new ProducerRecord<>("cookbook-orders", bytes("order-1"), codec.encode(new Order(1L, "paid", 1L))),
				new ProducerRecord<>("cookbook-orders", bytes("order-2"), codec.encode(new Order(2L, "SHIPPED", 2L))),
				new ProducerRecord<>("cookbook-orders", bytes("order-3"), codec.encode(new Order(3L, "paid", 3L)))));
		assertThat(run(Command.REDRIVE)).isEqualTo(1);
		assertThat(output.getErr()).contains("redrive failed: the normalizer has no quarantine topic");
		assertThat(run(Command.TRANSFORM, quarantine)).isZero();

		assertThat(run(Command.REDRIVE, quarantine)).isZero();
		assertThat(run(Command.REDRIVE, quarantine)).isZero();

		assertThat(output.getOut()).containsSubsequence("committed 3\n",
				"redriven 1, kept by the loop guard 0, not selected 0, unroutable 0\n",
				"redriven 0, kept by the loop guard 0, not selected 0, unroutable 0\n");
		List<ConsumerRecord<byte[], byte[]>> input = read("cookbook-orders");
		assertThat(input).hasSize(4).last().satisfies((record) -> {
			assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("order-2");
			assertThat(codec.decode(record.value()).getStatus()).isEqualTo("SHIPPED");
			assertThat(new String(record.headers().lastHeader("lockstep.redrive.count").value(), StandardCharsets.UTF_8))
				.isEqualTo("1");
		});
	}

	@Test
	void registryModeFramesValuesUnderTheTopicSubjects(CapturedOutput output) {
		try (TestSchemaRegistry registry = TestSchemaRegistry.start()) {
			String url = "--lockstep.registry.url=" + registry.url();
			assertThat(run(Command.SEED, url)).isZero();
			assertThat(run(Command.TRANSFORM, url)).isZero();
			assertThat(run(Command.VERIFY, url)).isZero();
			assertThat(output.getOut()).containsSubsequence("seeded 3\n", "committed 3\n",
					"verified 2 orders and 1 tombstone\n");
			assertThat(registry.requestCount("POST /subjects/cookbook-orders-value/versions")).isPositive();
			assertThat(registry.requestCount("POST /subjects/cookbook-normalized-value/versions")).isPositive();
			assertThat(readOutput().get(0).value()[0]).isZero();
		}
	}

	@Test
	void embeddedRegistryModeKeepsItsSchemasBetweenProcesses(CapturedOutput output, @TempDir Path registryData)
			throws Exception {
		String[] embedded = { "--sample.registry=embedded",
				"--lockstep.dev.embedded-registry.data-dir=" + registryData };
		assertThat(run(Command.SEED, embedded)).isZero();
		assertThat(run(Command.TRANSFORM, embedded)).isZero();
		assertThat(run(Command.VERIFY, embedded)).isZero();
		assertThat(output.getOut()).containsSubsequence("seeded 3\n", "committed 3\n",
				"verified 2 orders and 1 tombstone\n");
		// Framed with the ids the registry gave, which later processes read from its data.
		byte[] value = readOutput().get(0).value();
		assertThat(value[0]).isZero();
		assertThat(Files.readString(registryData.resolve("schemas.json"))).contains("cookbook-orders-value")
			.contains("cookbook-normalized-value");
	}

	@Test
	void demoRunsWithTheEmbeddedRegistry(CapturedOutput output) {
		assertThat(SampleApplication.run(Command.DEMO, "--sample.registry=embedded")).isZero();
		assertThat(output.getOut()).containsSubsequence("seeded 3\n", "committed 3\n",
				"verified 2 orders and 1 tombstone\n");
	}

	@Test
	void demoRunsAgainAndAgainOnAFreshTemporaryBroker(CapturedOutput output) {
		assertThat(SampleApplication.run(Command.DEMO)).isZero();
		assertThat(SampleApplication.run(Command.DEMO)).isZero();
		assertThat(output.getOut().split("verified 2 orders and 1 tombstone", -1)).hasSize(3);
	}

	private long committedOffset() {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.broker.bootstrapServers()))) {
			return admin.listConsumerGroupOffsets("cookbook-normalizers")
				.partitionsToOffsetAndMetadata()
				.get()
				.get(new TopicPartition("cookbook-orders", 0))
				.offset();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private void createOutputTopicIfMissing() {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.broker.bootstrapServers()))) {
			await().until(() -> admin.listTopics().names().get().contains("cookbook-normalized"));
		}
	}

	private List<ConsumerRecord<byte[], byte[]>> readOutput() {
		return read("cookbook-normalized");
	}

	private List<ConsumerRecord<byte[], byte[]>> read(String topic) {
		Properties props = new Properties();
		props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.broker.bootstrapServers());
		props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
				new ByteArrayDeserializer())) {
			TopicPartition partition = new TopicPartition(topic, 0);
			consumer.assign(List.of(partition));
			consumer.seekToBeginning(List.of(partition));
			long end = consumer.endOffsets(List.of(partition)).get(partition);
			List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				consumer.poll(Duration.ofMillis(200)).forEach(records::add);
				return consumer.position(partition) >= end;
			});
			return records;
		}
	}

	private void produce(List<ProducerRecord<byte[], byte[]>> records) {
		Properties props = new Properties();
		props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.broker.bootstrapServers());
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			for (ProducerRecord<byte[], byte[]> record : records) {
				producer.send(record).get();
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
