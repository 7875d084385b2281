package dev.lockstep.e2e;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 1 of the exactly-once proof: the sample worker (concurrency 2 over 4
 * partitions) SIGKILLed at random moments at least 20 times and restarted each time; the
 * read_committed output must hold exactly one normalized record per input, keys,
 * headers and tombstones kept, per-partition order preserved, and the group's lag 0.
 */
class WorkerKillStormTests {

	private static final int RECORDS = Integer.getInteger("lockstep.e2e.records", 100_000);

	private static final int KILLS = Integer.getInteger("lockstep.e2e.kills", 20);

	private static final String INPUT = "cookbook-orders";

	private static final String OUTPUT = "cookbook-normalized";

	private static InJvmKafkaBroker broker;

	@BeforeAll
	static void startBroker() {
		broker = InJvmKafkaBroker.start();
	}

	@AfterAll
	static void stopBroker() {
		broker.close();
	}

	@Test
	void outputIsExactAfterRepeatedSigkills(@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		createTopics(4);
		seed();
		Random random = new Random(20261129L);
		int kills = 0;
		while (kills < KILLS) {
			SampleAppProcess worker = startWorker(workDir);
			long target = outputEndOffsets() + 200 + random.nextInt(3000);
			// A random moment: after a random amount of output (or, for some, during start-up).
			if (random.nextInt(5) != 0) {
				await().atMost(Duration.ofMinutes(2)).until(() -> outputEndOffsets() >= target || !worker.isAlive());
			}
			assertThat(worker.isAlive()).as(worker::output).isTrue();
			worker.kill();
			kills++;
		}
		SampleAppProcess last = startWorker(workDir);
		try {
			await().atMost(Duration.ofMinutes(5)).until(() -> groupLag() == 0);
		}
		finally {
			last.stop(Duration.ofSeconds(60));
		}
		Result result = verify();
		System.out.printf("E2E kill-storm: in=%d out=%d duplicates=%d missing=%d kills=%d restarts=%d wall=%.1fs%n",
				RECORDS, result.out, result.duplicates, result.missing, kills, kills + 1,
				(System.nanoTime() - started) / 1e9);
		assertThat(result.duplicates).isZero();
		assertThat(result.missing).isZero();
		assertThat(result.out).isEqualTo(RECORDS);
	}

	private SampleAppProcess startWorker(Path workDir) {
		return SampleAppProcess.start(workDir, "--spring.kafka.bootstrap-servers=" + broker.bootstrapServers(),
				"--spring.main.web-application-type=none", "--lockstep.workers.normalizer.concurrency=2",
				// A killed member leaves the group after its session times out: keep that short.
				"--lockstep.workers.normalizer.consumer.session.timeout.ms=6000",
				"--lockstep.workers.normalizer.consumer.heartbeat.interval.ms=1000", "--logging.level.root=WARN");
	}

	private void createTopics(int partitions) throws Exception {
		try (Admin admin = admin()) {
			admin.createTopics(List.of(new NewTopic(INPUT, Optional.of(partitions), Optional.empty()),
					new NewTopic(OUTPUT, Optional.of(partitions), Optional.empty())))
				.all()
				.get();
		}
	}

	private void seed() throws Exception {
		Properties props = new Properties();
		props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
		props.put(ProducerConfig.LINGER_MS_CONFIG, 10);
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			for (long id = 1; id <= RECORDS; id++) {
				RecordHeaders headers = new RecordHeaders();
				headers.add("seq", Long.toString(id).getBytes(StandardCharsets.UTF_8));
				producer.send(new ProducerRecord<>(INPUT, null, Orders.key(id),
						Orders.isTombstone(id) ? null : Orders.encode(id), headers));
			}
			producer.flush();
		}
	}

	/** Output log end offsets, summed: records plus markers, committed or not; a kill trigger only. */
	private long outputEndOffsets() {
		try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
			return consumer.endOffsets(partitions(consumer, OUTPUT)).values().stream().mapToLong(Long::longValue).sum();
		}
	}

	private long groupLag() throws Exception {
		try (Admin admin = admin(); KafkaConsumer<byte[], byte[]> consumer = consumer()) {
			Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets("cookbook-normalizers")
				.partitionsToOffsetAndMetadata()
				.get();
			long lag = 0;
			for (Map.Entry<TopicPartition, Long> end : consumer.endOffsets(partitions(consumer, INPUT)).entrySet()) {
				OffsetAndMetadata offset = committed.get(end.getKey());
				lag += end.getValue() - ((offset != null) ? offset.offset() : 0);
			}
			return lag;
		}
	}

	private Result verify() {
		Map<Long, Integer> seen = new HashMap<>();
		Result result = new Result();
		try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
			List<TopicPartition> partitions = partitions(consumer, OUTPUT);
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
			Map<Integer, Long> lastIdByPartition = new HashMap<>();
			List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
			await().atMost(Duration.ofMinutes(2)).until(() -> {
				consumer.poll(Duration.ofMillis(500)).forEach(batch::add);
				return partitions.stream().allMatch((partition) -> consumer.position(partition) >= ends.get(partition));
			});
			for (ConsumerRecord<byte[], byte[]> record : batch) {
				long id = Long.parseLong(new String(record.key(), StandardCharsets.UTF_8).substring("order-".length()));
				Header seq = record.headers().lastHeader("seq");
				assertThat(seq).as("seq header of order %d", id).isNotNull();
				assertThat(new String(seq.value(), StandardCharsets.UTF_8)).isEqualTo(Long.toString(id));
				if (Orders.isTombstone(id)) {
					assertThat(record.value()).as("tombstone %d", id).isNull();
				}
				else {
					GenericRecord order = Orders.decode(record.value());
					assertThat(order.get("id")).isEqualTo(id);
					assertThat(order.get("status").toString()).isEqualTo(Orders.normalized(id));
				}
				// Ids were seeded in increasing order, and a key stays on its partition.
				Long previous = lastIdByPartition.put(record.partition(), id);
				assertThat(previous == null || previous < id).as("order of partition %d at %d", record.partition(), id)
					.isTrue();
				seen.merge(id, 1, Integer::sum);
				result.out++;
			}
		}
		result.duplicates = seen.values().stream().filter((count) -> count > 1).mapToLong((count) -> count - 1).sum();
		result.missing = RECORDS - seen.size();
		return result;
	}

	private static List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer, String topic) {
		return consumer.partitionsFor(topic).stream().map((info) -> new TopicPartition(topic, info.partition())).toList();
	}

	private KafkaConsumer<byte[], byte[]> consumer() {
		Properties props = new Properties();
		props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
		props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
		return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
	}

	private Admin admin() {
		return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
	}

	private static final class Result {

		long out;

		long duplicates;

		long missing;

	}

}
