package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import dev.lockstep.e2e.CompatibilityMatrixTests.Cluster;
import dev.lockstep.test.kafka.KafkaBrokerProcess;
import dev.lockstep.test.kafka.KafkaClusterProcesses;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Broker operations as operators run them, under a running worker service that serves its
 * actuator, while input keeps arriving: a single broker SIGKILLed and restarted four times
 * at 5–10 s intervals; a three-node cluster (replication factor 3, min ISR 2) rolled node
 * by node, each stopped with SIGTERM (controlled shutdown) and started again, waiting for
 * every partition's ISR (the offsets and transaction state topics included) between
 * nodes; the same with SIGKILL. Pass: the output exact, no slot FENCED or FAILED, the
 * worker process alive, the {@code lockstep} health component never DOWN, and (single
 * broker) every {@code /actuator/health} answer within a probe's one-second timeout, the
 * broker down included. Each run prints its E2E line and the longest output pause of each
 * restart. CI runs Kafka 4.1 as it comes (classic groups, transactions v2) with one round
 * of each rolling restart; {@code -Pmatrix} runs three rounds on transactions v1 and v2,
 * classic and consumer groups.
 */
class BrokerOperationsTests {

	private static final boolean FULL = Boolean.getBoolean("lockstep.e2e.matrix.full");

	private static final int ROUNDS = FULL ? 3 : 1;

	private static final int SINGLE_BROKER_RESTARTS = 4;

	// Input per second while the operations run; the rest is seeded at the end.
	private static final int FEED_PER_SECOND = 1_000;

	private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

	static Stream<Cluster> clusters() {
		return FULL ? Stream.of(Cluster.KAFKA_41_CLASSIC_TV1, Cluster.KAFKA_41_CLASSIC_TV2, Cluster.KAFKA_41_CONSUMER_TV2)
				: Stream.of(Cluster.KAFKA_41_CLASSIC_TV2);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("clusters")
	void singleBrokerRestartedFourTimesFiveToTenSecondsApart(Cluster row, @TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start(row.broker())) {
			OrderPipeline pipeline = row.pipeline(broker, 200_000);
			Random random = new Random(20261203L);
			operate(pipeline, workDir, "single-broker-restarts", started, true, (restarts) -> {
				for (int restart = 1; restart <= SINGLE_BROKER_RESTARTS; restart++) {
					sleep(Duration.ofMillis(5_000 + random.nextInt(5_000)));
					long stoppedAt = System.nanoTime();
					broker.kill();
					broker.restart();
					restarts.add(new Restart("broker kill " + restart, stoppedAt, System.nanoTime()));
				}
			});
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("clusters")
	void threeNodeClusterRolledNodeByNodeWithSigtermThenSigkill(Cluster row, @TempDir Path workDir)
			throws Exception {
		long started = System.nanoTime();
		try (KafkaClusterProcesses cluster = KafkaClusterProcesses.start(3, row.broker())) {
			OrderPipeline pipeline = new OrderPipeline(cluster.bootstrapServers(), 300_000).groupProtocol(row.groupProtocol());
			pipeline.createTopics(4, (short) 3);
			operate(pipeline, workDir, "rolling-restarts", started, false, (restarts) -> {
				for (String signal : List.of("SIGTERM", "SIGKILL")) {
					for (int round = 1; round <= ROUNDS; round++) {
						for (KafkaBrokerProcess node : cluster.nodes()) {
							awaitFullIsr(cluster.bootstrapServers());
							long stoppedAt = System.nanoTime();
							if (signal.equals("SIGTERM")) {
								node.stop();
							}
							else {
								node.kill();
							}
							node.restart();
							restarts.add(new Restart(signal + " node " + node.nodeId() + " round " + round, stoppedAt,
									System.nanoTime()));
						}
					}
				}
				awaitFullIsr(cluster.bootstrapServers());
			});
		}
	}

	/**
	 * Run the worker service under a steady feed while the operations run, then seed the
	 * rest, wait for lag 0, and check everything the class promises.
	 */
	private static void operate(OrderPipeline pipeline, Path workDir, String scenario, long started,
			boolean checkAnswerTimes, Operations operations) throws Exception {
		Actuator actuator = Actuator.onFreePort();
		SampleAppProcess worker = pipeline.startWorker(workDir, actuator.args("health").toArray(String[]::new));
		List<Restart> restarts = new ArrayList<>();
		try (OutputProgress progress = new OutputProgress(pipeline.bootstrapServers());
				HealthWatch health = new HealthWatch(actuator);
				Feed feed = new Feed(pipeline, FEED_PER_SECOND)) {
			worker.awaitUntil("the worker's first outputs", Duration.ofMinutes(4), () -> progress.total() > 0);
			try {
				operations.run(restarts);
			}
			catch (AssertionError | RuntimeException ex) {
				throw new AssertionError(ex.getMessage() + "\n" + worker.logTail(), ex);
			}
			long fed = feed.stop();
			pipeline.seed(fed + 1, pipeline.records());
			worker.awaitUntil("group lag 0 after the operations", Duration.ofMinutes(6), () -> pipeline.groupLag() == 0);
			assertThat(worker.isAlive()).as(() -> "the worker process\n" + worker.logTail()).isTrue();
			assertThat(worker.output()).as("slots stopped").doesNotContain(" FENCED: ").doesNotContain(" FAILED: ");
			assertThat(health.lockstepStatuses()).as("the lockstep health component's statuses").doesNotContain("DOWN");
			if (checkAnswerTimes) {
				assertThat(health.slowestAnswer()).as("the slowest /actuator/health answer").isLessThan(PROBE_TIMEOUT);
			}
			List<String> pauses = restarts.stream()
				.map((restart) -> restart.name() + " " + format(progress.longestPause(restart.stoppedAt(), restart.readyAt())))
				.toList();
			System.out.println("E2E " + scenario + " pauses: " + pauses + "; slowest /actuator/health answer "
					+ format(health.slowestAnswer()) + "; lockstep statuses " + health.lockstepStatuses());
		}
		finally {
			worker.stop(Duration.ofSeconds(60));
		}
		pipeline.assertExactOutput(scenario, 0, restarts.size(), started);
	}

	private static void awaitFullIsr(String bootstrapServers) {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
			org.awaitility.Awaitility.await()
				.atMost(Duration.ofMinutes(3))
				.pollInterval(Duration.ofMillis(500))
				.ignoreExceptions()
				.until(() -> {
					var names = admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true))
						.names()
						.get();
					Map<String, TopicDescription> topics = admin.describeTopics(names).allTopicNames().get();
					return topics.values()
						.stream()
						.flatMap((topic) -> topic.partitions().stream())
						.allMatch(BrokerOperationsTests::isFullyReplicated);
				});
		}
	}

	private static boolean isFullyReplicated(TopicPartitionInfo partition) {
		return partition.leader() != null && partition.isr().size() == partition.replicas().size();
	}

	private static String format(Duration duration) {
		return String.format("%.1fs", duration.toMillis() / 1000.0);
	}

	// The interval between two faults is the scenario itself, not a wait for a condition.
	private static void sleep(Duration duration) {
		org.awaitility.Awaitility.await().pollDelay(duration).atMost(duration.plusSeconds(5)).until(() -> true);
	}

	/** One broker restart: when its node was stopped and when it served requests again. */
	record Restart(String name, long stoppedAt, long readyAt) {

	}

	@FunctionalInterface
	interface Operations {

		void run(List<Restart> restarts) throws Exception;

	}

}
