package dev.lockstep.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 6 of the exactly-once proof: one malformed value among 10,000. Under
 * {@code block} nothing after it is committed until an operator skips it through
 * {@code /actuator/lockstep}; under {@code quarantine} it lands in the quarantine topic in
 * the same transactions as the good records.
 */
class PoisonPillTests {

	private static final int RECORDS = 10_000;

	private static final long BAD = 5_001;

	@Test
	void blockHoldsAtThePoisonPillUntilAnOperatorSkipsIt(@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS);
			pipeline.createTopics(1, (short) 1);
			pipeline.seed(1, RECORDS, Set.of(BAD));
			int port = freePort();
			SampleAppProcess worker = pipeline.startWorker(workDir, "--spring.main.web-application-type=servlet",
					"--server.port=" + port, "--management.endpoints.web.exposure.include=health,lockstep",
					"--management.endpoint.lockstep.access=unrestricted");
			try {
				await().atMost(Duration.ofMinutes(2))
					.until(() -> get(port, "/actuator/lockstep/normalizer").contains("\"status\":\"BLOCKED\""));
				// Nothing past the pill: the committed offset is the pill's, the output the orders before it.
				assertThat(pipeline.groupLag()).isEqualTo(RECORDS - BAD + 1);
				assertThat(countOutput(broker, OrderPipeline.OUTPUT)).isEqualTo(BAD - 1);
				assertThat(post(port, "/actuator/lockstep/normalizer", "{\"action\":\"skip\"}")).isEqualTo(200);
				await().atMost(Duration.ofMinutes(2)).until(() -> pipeline.groupLag() == 0);
			}
			finally {
				worker.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput("poison-pill-block", Set.of(BAD), 0, 0, started);
		}
	}

	@Test
	void quarantineMovesThePoisonPillAsideInTheSameTransactions(@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS);
			pipeline.createTopics(1, (short) 1);
			try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
				admin.createTopics(List.of(new NewTopic("cookbook-quarantine", Optional.of(1), Optional.empty()))).all().get();
			}
			pipeline.seed(1, RECORDS, Set.of(BAD));
			SampleAppProcess worker = pipeline.startWorker(workDir,
					"--lockstep.workers.normalizer.invalid-input.policy=quarantine",
					"--lockstep.workers.normalizer.invalid-input.quarantine-topic=cookbook-quarantine");
			try {
				await().atMost(Duration.ofMinutes(2)).until(() -> pipeline.groupLag() == 0);
			}
			finally {
				worker.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput("poison-pill-quarantine", Set.of(BAD), 0, 0, started);
			List<ConsumerRecord<byte[], byte[]>> quarantined = read(broker, "cookbook-quarantine");
			assertThat(quarantined).singleElement().satisfies((record) -> {
				assertThat(new String(record.key())).isEqualTo("order-" + BAD);
				assertThat(record.value()).isEqualTo(OrderPipeline.MALFORMED);
				assertThat(new String(record.headers().lastHeader("lockstep.error.offset").value()))
					.isEqualTo(Long.toString(BAD - 1));
			});
		}
	}

	private static long countOutput(InJvmKafkaBroker broker, String topic) {
		return read(broker, topic).size();
	}

	private static List<ConsumerRecord<byte[], byte[]>> read(InJvmKafkaBroker broker, String topic) {
		Properties props = new Properties();
		props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
		props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
				new ByteArrayDeserializer())) {
			TopicPartition partition = new TopicPartition(topic, 0);
			consumer.assign(List.of(partition));
			consumer.seekToBeginning(List.of(partition));
			long end = consumer.endOffsets(List.of(partition)).get(partition);
			List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
			await().atMost(Duration.ofSeconds(60)).until(() -> {
				consumer.poll(Duration.ofMillis(200)).forEach(records::add);
				return consumer.position(partition) >= end;
			});
			return records;
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	private static String get(int port, String path) {
		try {
			return HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
						HttpResponse.BodyHandlers.ofString())
				.body();
		}
		catch (IOException ex) {
			return "";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "";
		}
	}

	private static int post(int port, String path, String body) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString())
			.statusCode();
	}

}
