package dev.lockstep.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockstep.test.kafka.KafkaBrokerProcess;
import dev.lockstep.worker.InstanceIdentity;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.RecordProcessor;
import dev.lockstep.worker.Worker;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.WorkerStatus;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample running as a service on a random port, against a broker process, read over
 * HTTP the way a monitoring system reads it: /actuator/health and /actuator/prometheus.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoint.health.show-details=always", "management.endpoint.health.probes.enabled=true",
				"management.endpoints.web.exposure.include=health,prometheus,lockstep",
				"management.endpoint.lockstep.access=unrestricted" })
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SampleObservabilityTests {

	private static final KafkaBrokerProcess broker = KafkaBrokerProcess.start();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	@Qualifier("orders")
	private KafkaTemplate<String, Order> orders;

	@Autowired
	private LockstepWorkers workers;

	@DynamicPropertySource
	static void kafka(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", broker::bootstrapServers);
	}

	@AfterAll
	static void stopBroker() {
		broker.close();
	}

	@Test
	@org.junit.jupiter.api.Order(1)
	void countersMatchTheRecordsAndLagDrainsToZeroOnATransactionalTopic() {
		seed(new Order(1L, "paid", 1L), new Order(2L, "Refunded", 2L), null);
		seed(new Order(3L, "PAID", 3L), null);
		await().atMost(Duration.ofSeconds(60)).until(() -> metric("lockstep_worker_records_total",
				"outcome=\"processed\"") == 3 && metric("lockstep_worker_records_total", "outcome=\"tombstone\"") == 2);
		assertThat(metric("lockstep_worker_records_out_total", "worker=\"normalizer\"")).isEqualTo(5);
		assertThat(metric("lockstep_worker_transactions_total", "result=\"committed\"")).isPositive();
		// The input was written in transactions: lag must reach 0, commit markers not counted.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> metric("lockstep_worker_lag", "topic=\"cookbook-orders\"") == 0);
		// The kafka component's check runs in the background: UNKNOWN until its first check completed.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> health().at("/components/kafka/status").asText().equals("UP"));
		JsonNode health = health();
		assertThat(health.at("/components/lockstep/status").asText()).isEqualTo("UP");
		String instance = health.at("/components/lockstep/details/normalizer/instance/id").asText();
		assertThat(health.at("/components/lockstep/details/normalizer/instance/kind").asText())
			.isEqualTo(InstanceIdentity.resolve(System.getenv()).kind().name());
		assertThat(health.at("/components/lockstep/details/normalizer/slots/0/transactionalId").asText())
			.isEqualTo("cookbook-normalizer-" + instance + "-0");
		assertThat(health.at("/components/kafka/status").asText()).isEqualTo("UP");
		assertThat(health.at("/components/kafka/details/nodes").asInt()).isEqualTo(1);
		assertThat(health.at("/components/kafka/details/transactionStateLog").asText()).isEqualTo("usable");
		assertThat(get("/actuator/prometheus")).contains("kafka_consumer_fetch_manager_records_consumed_total",
				"kafka_producer_record_send_total", "lockstep_worker_transaction_duration_seconds_count",
				"lockstep_worker_state{worker=\"normalizer\"}");
	}

	@Test
	@org.junit.jupiter.api.Order(2)
	void everyMetricTheGrafanaDashboardQueriesIsPublished() throws IOException {
		JsonNode dashboard = new ObjectMapper().readTree(Path.of("../dashboards/lockstep-workers.json").toFile());
		Set<String> queried = new TreeSet<>();
		Matcher names = Pattern.compile("lockstep_\\w+").matcher(dashboard.toString());
		while (names.find()) {
			queried.add(names.group());
		}
		assertThat(queried).as("metrics the dashboard queries").hasSizeGreaterThanOrEqualTo(8);
		String published = get("/actuator/prometheus");
		assertThat(queried).allSatisfy((name) -> assertThat(published).as("/actuator/prometheus")
			.containsPattern("(?m)^" + name + "\\{"));
	}

	@Test
	@org.junit.jupiter.api.Order(3)
	void stoppedBrokerTurnsKafkaHealthDownAndBackUpAfterRestartAnsweringWithinAProbesTimeout() {
		broker.kill();
		List<Duration> answers = new ArrayList<>();
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			long started = System.nanoTime();
			String kafka = health().at("/components/kafka/status").asText();
			answers.add(Duration.ofNanos(System.nanoTime() - started));
			return kafka.equals("DOWN");
		});
		// Kubernetes' default probe timeout is one second; the check itself waits up to 5 s.
		assertThat(answers).as("health answer times with the broker down").allMatch(
				(answer) -> answer.compareTo(Duration.ofSeconds(1)) < 0);
		assertThat(health().at("/components/lockstep/status").asText()).as("the workers, still recovering")
			.isIn("UP", "RECOVERING");
		broker.restart();
		await().atMost(Duration.ofSeconds(60))
			.until(() -> health().at("/components/kafka/status").asText().equals("UP"));
	}

	@Test
	@org.junit.jupiter.api.Order(4)
	void probesEndpointAndPauseResumeReflectTheWorker() {
		await().atMost(Duration.ofSeconds(30)).until(() -> json("/actuator/health/readiness").at("/status").asText()
			.equals("UP"));
		assertThat(json("/actuator/health/liveness").at("/status").asText()).isEqualTo("UP");
		// The broker restart before this test may have the group rebalance: a slot shows the
		// committed offsets of the partitions it holds, once it holds them again.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> json("/actuator/lockstep").at("/normalizer/slots/0/committedOffsets/cookbook-orders-0")
				.asLong() > 0);
		JsonNode slot = json("/actuator/lockstep").at("/normalizer/slots/0");
		assertThat(slot.at("/lag/cookbook-orders-0").asLong()).isZero();
		assertThat(slot.has("recentErrors")).isTrue();
		assertThat(json("/actuator/lockstep/normalizer").at("/status").asText()).isEqualTo("RUNNING");

		assertThat(post("/actuator/lockstep/normalizer", "{\"action\":\"pause\"}")).isEqualTo(200);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> json("/actuator/lockstep/normalizer").at("/status").asText().equals("PAUSED"));
		seed(new Order(10L, "paid", 10L));
		long processed = (long) metric("lockstep_worker_records_total", "outcome=\"processed\"");
		assertThat(json("/actuator/lockstep/normalizer").at("/status").asText()).isEqualTo("PAUSED");
		assertThat(post("/actuator/lockstep/normalizer", "{\"action\":\"resume\"}")).isEqualTo(200);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> metric("lockstep_worker_records_total", "outcome=\"processed\"") == processed + 1);
		assertThat(json("/actuator/lockstep/normalizer").at("/status").asText()).isEqualTo("RUNNING");

		// The operator's reset to the end, as documented: paused, order 11 arrives, the input
		// moves past it (the committed offset moves), and after resuming only order 12 is processed.
		assertThat(post("/actuator/lockstep/normalizer", "{\"action\":\"pause\"}")).isEqualTo(200);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> json("/actuator/lockstep/normalizer").at("/status").asText().equals("PAUSED"));
		seed(new Order(11L, "paid", 11L));
		long committed = committedOffset();
		assertThat(post("/actuator/lockstep/normalizer", "{\"action\":\"reset\",\"to\":\"yesterday\"}"))
			.isEqualTo(400);
		assertThat(post("/actuator/lockstep/normalizer",
				"{\"action\":\"reset\",\"to\":\"end\",\"partitions\":\"cookbook-orders:0\"}"))
			.isEqualTo(200);
		await().atMost(Duration.ofSeconds(30)).until(() -> committedOffset() > committed);
		long reset = committedOffset();
		assertThat(metric("lockstep_worker_offset_resets_total", "target=\"end\"")).isOne();
		assertThat(post("/actuator/lockstep/normalizer", "{\"action\":\"resume\"}")).isEqualTo(200);
		seed(new Order(12L, "paid", 12L));
		await().atMost(Duration.ofSeconds(30)).until(() -> committedOffset() > reset);
		assertThat(metric("lockstep_worker_records_total", "outcome=\"processed\"")).isEqualTo(processed + 2);
		// A redrive needs a quarantine topic, which the sample as shipped has not.
		assertThat(post("/actuator/lockstep/normalizer", "{\"action\":\"redrive\",\"maxRedrives\":2}"))
			.isEqualTo(400);
	}

	private long committedOffset() {
		return json("/actuator/lockstep").at("/normalizer/slots/0/committedOffsets/cookbook-orders-0").asLong();
	}

	@Test
	@org.junit.jupiter.api.Order(5)
	void blockedWorkerShowsTheOffendingRecordAndTurnsHealthDown() {
		long before = (long) metric("lockstep_worker_records_total", "outcome=\"processed\"");
		seed(new Order(9L, "SHIPPED", 9L));
		await().atMost(Duration.ofSeconds(60))
			.until(() -> health().at("/components/lockstep/status").asText().equals("DOWN"));
		JsonNode slot = health().at("/components/lockstep/details/normalizer/slots/0");
		assertThat(slot.at("/status").asText()).isEqualTo("BLOCKED");
		assertThat(slot.at("/blockedAt/topic").asText()).isEqualTo("cookbook-orders");
		assertThat(slot.at("/blockedAt/offset").asLong()).isPositive();
		assertThat(slot.at("/blockedAt/reason").asText()).contains("invalid order 9 (status SHIPPED");
		assertThat(metric("lockstep_worker_records_total", "outcome=\"rejected\"")).isPositive();
		assertThat(metric("lockstep_worker_records_total", "outcome=\"processed\"")).isEqualTo(before);
		long blockedOffset = slot.at("/blockedAt/offset").asLong();

		// The documented operator action: skip the record on purpose; its offset moves in a transaction.
		assertThat(post("/actuator/lockstep/normalizer", "{\"action\":\"skip\"}")).isEqualTo(200);
		await().atMost(Duration.ofSeconds(60))
			.until(() -> health().at("/components/lockstep/status").asText().equals("UP"));
		await().atMost(Duration.ofSeconds(30)).until(() -> json("/actuator/lockstep/normalizer")
			.at("/slots/0/committedOffsets/cookbook-orders-0")
			.asLong() > blockedOffset);
		seed(new Order(11L, "paid", 11L));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> metric("lockstep_worker_records_total", "outcome=\"processed\"") == before + 1);
	}

	@Test
	@org.junit.jupiter.api.Order(6)
	void fencedWorkerShowsFencedAndBreaksLiveness() {
		WorkerSettings settings = this.workers.worker("normalizer").settings();
		// A twin: a second instance with the same transactional id, in its own group so that
		// both keep consuming, reading only new input (the blocked order 9 lies behind it).
		Map<String, Object> twinConsumer = new HashMap<>(settings.consumerProperties());
		twinConsumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
		WorkerSettings twinSettings = WorkerSettings.builder("twin")
			.sourceTopics(settings.sourceTopics())
			.destination(settings.destination())
			.groupId("twins")
			.transactionalId(settings.transactionalId())
			.instance(settings.instance())
			.consumerProperties(twinConsumer)
			.producerProperties(settings.producerProperties())
			.codecs(settings.codecs())
			.pollTimeout(settings.pollTimeout())
			.transaction(settings.transaction())
			.invalidInput(settings.invalidInput())
			.recovery(settings.recovery())
			.bounds(settings.bounds())
			.shutdownTimeout(settings.shutdownTimeout())
			.build();
		AtomicReference<Worker> twin = new AtomicReference<>(startTwin(twinSettings));
		try {
			// A fence nothing explains is re-initialised from once (it may be a broker's
			// failover); the second one is a takeover. Both instances keep transacting
			// while input flows, so one of them meets the other's fence twice; when that is
			// the twin, a new twin is started (as a crash-looping duplicate would be) until
			// the running worker is the one fenced.
			AtomicLong nextOrder = new AtomicLong(100);
			await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
				if (twin.get().state().slots().stream().anyMatch((slot) -> slot.status() == WorkerStatus.FENCED)) {
					twin.getAndSet(startTwin(twinSettings)).stop();
				}
				long id = nextOrder.getAndIncrement();
				seed(new Order(id, "paid", id));
				return json("/actuator/lockstep/normalizer").at("/status").asText().equals("FENCED");
			});
			assertThat(health().at("/components/lockstep/status").asText()).isEqualTo("DOWN");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> json("/actuator/health/liveness").at("/status").asText().equals("DOWN"));
		}
		finally {
			twin.get().stop();
		}
	}

	private static Worker startTwin(WorkerSettings settings) {
		Worker twin = new Worker(settings, RecordProcessor.of(new OrderNormalizer(Duration.ZERO)));
		twin.start();
		await().atMost(Duration.ofSeconds(60)).until(() -> twin.state().status() == WorkerStatus.RUNNING);
		return twin;
	}

	private void seed(Order... values) {
		this.orders.executeInTransaction((template) -> {
			for (Order value : values) {
				template.send("cookbook-orders", (value != null) ? "order-" + value.getId() : "gone", value);
			}
			return null;
		});
	}

	private double metric(String name, String label) {
		Matcher matcher = Pattern.compile("(?m)^" + name + "\\{([^}]*)\\} (\\S+)$").matcher(get("/actuator/prometheus"));
		double sum = 0;
		boolean found = false;
		while (matcher.find()) {
			if (matcher.group(1).contains(label)) {
				sum += Double.parseDouble(matcher.group(2));
				found = true;
			}
		}
		return found ? sum : -1;
	}

	private JsonNode health() {
		return json("/actuator/health");
	}

	private JsonNode json(String path) {
		try {
			return new ObjectMapper().readTree(get(path));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private int post(String path, String body) {
		try {
			return this.http
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofString(body))
					.build(), HttpResponse.BodyHandlers.ofString())
				.statusCode();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private String get(String path) {
		try {
			return this.http
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build(),
						HttpResponse.BodyHandlers.ofString())
				.body();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
