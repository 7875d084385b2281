package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import dev.lockstep.e2e.CompatibilityMatrixTests.Cluster;
import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.KafkaBrokerProcess;
import dev.lockstep.test.kafka.KafkaClusterProcesses;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 14, broker operations as operators run them, under the sample service as it is
 * deployed (its actuator served and probed every 500 ms) while input keeps arriving: the
 * single broker SIGKILLed and restarted four times, each kill 5 to 10 s (fixed seed) after
 * it came back; a three-node cluster (replication factor 3, min ISR 2) rolled node by
 * node, each stopped with SIGTERM (controlled shutdown) and started again, every
 * partition's ISR (the offsets and transaction state topics included) waited for between
 * nodes, then the same with SIGKILL. Pass: the output exact, no slot FENCED or FAILED, the
 * worker process alive, the {@code lockstep} health component never DOWN, and every
 * {@code /actuator/health} answer within a probe's one-second timeout, the broker down
 * included. Each run prints its {@code E2E} line and, per restart, the longest time the
 * committed output stood still beside the input's producer (the cluster's own pause) and
 * the time the node was down. {@code ./mvnw verify} runs Kafka 4.1 as it comes (classic groups,
 * transactions v2), one round of each rolling restart; {@code -Pmatrix} three rounds on
 * transactions v1 and v2, classic and consumer groups, and the rolling restarts on Kafka
 * 4.4.0 too.
 */
@Tag("matrix")
@Tag("broker-faults")
class BrokerOperationsTests {

	private static final boolean FULL = Boolean.getBoolean("lockstep.e2e.matrix.full");

	private static final int ROUNDS = FULL ? 3 : 1;

	// More than the feed brings while the restarts run; the rest is seeded at the end.
	private static final int SINGLE_BROKER_RECORDS = 100_000;

	private static final int SINGLE_BROKER_RESTARTS = 4;

	// More than the feed brings while the rounds run; the rest is seeded at the end.
	private static final int CLUSTER_RECORDS = 100_000 * ROUNDS;

	private static final int FEED_PER_SECOND = 500;

	static Stream<Arguments> clusters() {
		return ScenarioRuns.onEach(CompatibilityMatrixTests.selected(kafka41()));
	}

	/**
	 * Under -Pmatrix also Kafka 4.4.0 (classic groups on 4.1 clients, the consumer protocol on
	 * 4.4 clients), rolled only: a 4.4.0 broker restarted with every replica of a partition
	 * can hold back a committed transaction ({@link BrokerCrashDurabilityTests}); none was
	 * held back where the others led its partitions meanwhile.
	 */
	static Stream<Arguments> rolledClusters() {
		Stream<Cluster> kafka44 = FULL ? Stream.of(Cluster.KAFKA_44_CLASSIC, Cluster.KAFKA_44_CONSUMER_CLIENTS_44)
				: Stream.empty();
		return ScenarioRuns.onEach(CompatibilityMatrixTests.selected(Stream.concat(kafka41(), kafka44)));
	}

	private static Stream<Cluster> kafka41() {
		return FULL ? Stream.of(Cluster.KAFKA_41_CLASSIC_TV1, Cluster.KAFKA_41_CLASSIC_TV2,
				Cluster.KAFKA_41_CONSUMER_TV1, Cluster.KAFKA_41_CONSUMER_TV2) : Stream.of(Cluster.KAFKA_41_CLASSIC_TV2);
	}

	@ParameterizedTest(name = "{0} run {1}")
	@MethodSource("clusters")
	void singleBrokerKilledAndRestartedFourTimesFiveToTenSecondsApart(Cluster row, int run, @TempDir Path workDir)
			throws Exception {
		long started = System.nanoTime();
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start(row.broker())) {
			OrderPipeline pipeline = row.pipeline(broker, SINGLE_BROKER_RECORDS, (short) 1);
			Random random = new Random(20261203L);
			List<Restart> restarts = operate(pipeline, broker, workDir, "broker-restarts-seconds-apart", true, () -> {
				List<Restart> done = new ArrayList<>();
				for (int restart = 1; restart <= SINGLE_BROKER_RESTARTS; restart++) {
					// The spacing of the faults is the scenario itself, not a wait for a condition.
					Duration interval = Duration.ofMillis(5_000 + random.nextInt(5_000));
					await().pollDelay(interval).atMost(interval.plusSeconds(5)).until(() -> true);
					long stoppedAt = System.nanoTime();
					broker.kill();
					broker.restart();
					done.add(new Restart("kill " + restart, stoppedAt, System.nanoTime()));
				}
				return done;
			}, broker::logTail);
			pipeline.assertExactOutput("broker-restarts-seconds-apart[" + row.describe(broker, pipeline) + "]",
					restarts.size(), restarts.size(), started);
		}
	}

	@ParameterizedTest(name = "{0} run {1}")
	@MethodSource("rolledClusters")
	void threeNodeClusterRolledNodeByNodeWithSigtermThenWithSigkill(Cluster row, int run, @TempDir Path workDir)
			throws Exception {
		long started = System.nanoTime();
		try (KafkaClusterProcesses cluster = KafkaClusterProcesses.start(3, row.broker())) {
			OrderPipeline pipeline = row.pipeline(cluster, CLUSTER_RECORDS, (short) 3);
			List<Restart> restarts = operate(pipeline, cluster, workDir, "rolling-restarts", false, () -> {
				List<Restart> done = new ArrayList<>();
				for (boolean controlled : List.of(true, false)) {
					for (int round = 1; round <= ROUNDS; round++) {
						for (KafkaBrokerProcess node : cluster.nodes()) {
							awaitFullIsr(cluster.bootstrapServers());
							long stoppedAt = System.nanoTime();
							if (controlled) {
								node.stop();
							}
							else {
								node.kill();
							}
							node.restart();
							done.add(new Restart((controlled ? "SIGTERM" : "SIGKILL") + " node " + node.nodeId()
									+ " round " + round, stoppedAt, System.nanoTime()));
						}
					}
				}
				awaitFullIsr(cluster.bootstrapServers());
				return done;
			}, (lines) -> cluster.nodes().stream().map((node) -> node.logTail(lines / 3)).toList().toString());
			long kills = restarts.stream().filter((restart) -> restart.name().startsWith("SIGKILL")).count();
			pipeline.assertExactOutput("rolling-restarts[" + row + "]", (int) kills, restarts.size(), started);
		}
	}

	/**
	 * Run the worker service under a steady feed while the operations run, then seed the
	 * rest of the orders, wait for lag 0, and check everything the class promises but the
	 * output, which the caller checks.
	 * @param brokerDown whether the operations leave the cluster without a node to serve
	 * (the {@code kafka} component must then say DOWN)
	 * @return the restarts the operations made
	 */
	private static List<Restart> operate(OrderPipeline pipeline, KafkaBroker broker, Path workDir, String scenario,
			boolean brokerDown, Callable<List<Restart>> operations, IntFunction<String> brokerLog) throws Exception {
		Actuator actuator = Actuator.onFreePort();
		SampleAppProcess worker = pipeline.startWorker(workDir, actuator.args("health").toArray(String[]::new));
		try (CommitProgress commits = new CommitProgress(broker.bootstrapServers());
				Feed feed = new Feed(pipeline, FEED_PER_SECOND)) {
			// Ready as a deployment's probes see it: health answered (the first request after a
			// JVM's start warms the web stack up, over a second on two cores) and commits flowing.
			worker.awaitUntil("the health endpoint's answer and the first commits", Duration.ofMinutes(4),
					() -> actuator.statusCode("/actuator/health") != 0 && commits.progress().started());
			List<Restart> restarts;
			long fed;
			try (HealthWatch health = new HealthWatch(actuator)) {
				restarts = operations.call();
				long lastReady = restarts.get(restarts.size() - 1).readyAt();
				worker.awaitUntil("commits and input after the last restart", Duration.ofMinutes(4),
						() -> commits.progress().steppedSince(lastReady)
								&& feed.acknowledged().steppedSince(lastReady));
				String pauses = pauses(restarts, System.nanoTime(), commits.progress(), feed.acknowledged());
				fed = feed.stop();
				health.close();
				System.out.println("E2E " + scenario + " longest pause per restart, commits/input acks/node down: "
						+ pauses + "; " + health);
				assertThat(health.probes()).as("health probes").isPositive();
				assertThat(health.failedProbes()).as("health probes unanswered or slower than 1 s").isEmpty();
				assertThat(health.lockstepStatuses()).as("the lockstep component's statuses")
					.contains("UP")
					.doesNotContain("DOWN");
				if (brokerDown) {
					assertThat(health.kafkaStatuses()).as("the kafka component's statuses").contains("UP", "DOWN");
				}
			}
			assertThat(fed).as("orders fed while the operations ran (the feed must outlast them)")
				.isLessThan(pipeline.records());
			pipeline.seed(fed + 1, pipeline.records());
			worker.awaitUntil("group lag 0 after the operations", Duration.ofMinutes(6),
					() -> pipeline.groupLag() == 0);
			assertThat(worker.isAlive()).as("the worker process is alive").isTrue();
			assertThat(worker.output()).as("slots stopped").doesNotContain(" FENCED: ").doesNotContain(" FAILED: ");
			return restarts;
		}
		catch (AssertionError | RuntimeException ex) {
			throw new AssertionError(ex.getMessage() + "\n" + worker.logTail() + "\n" + brokerLog.apply(60), ex);
		}
		finally {
			worker.stop(Duration.ofSeconds(60));
		}
	}

	/**
	 * Each restart's longest pauses, of the commits, the input's acknowledgements, and the
	 * node's downtime: from its node's stop to the next node's stop (the last: to the end).
	 */
	private static String pauses(List<Restart> restarts, long end, Progress commits, Progress input) {
		List<String> pauses = new ArrayList<>();
		for (int i = 0; i < restarts.size(); i++) {
			Restart restart = restarts.get(i);
			long to = (i + 1 < restarts.size()) ? restarts.get(i + 1).stoppedAt() : end;
			pauses.add(restart.name() + " " + seconds(commits.longestPause(restart.stoppedAt(), to)) + "/"
					+ seconds(input.longestPause(restart.stoppedAt(), to)) + "/"
					+ seconds(Duration.ofNanos(restart.readyAt() - restart.stoppedAt())));
		}
		return pauses.toString();
	}

	private static void awaitFullIsr(String bootstrapServers) {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
			await("every partition's ISR full, the internal topics' included").atMost(Duration.ofMinutes(3))
				.pollInterval(Duration.ofMillis(500))
				.ignoreExceptions()
				.until(() -> {
					Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get();
					return admin.describeTopics(topics)
						.allTopicNames()
						.get()
						.values()
						.stream()
						.flatMap((topic) -> topic.partitions().stream())
						.allMatch(BrokerOperationsTests::isFullyReplicated);
				});
		}
	}

	private static boolean isFullyReplicated(TopicPartitionInfo partition) {
		return partition.leader() != null && partition.isr().size() == partition.replicas().size();
	}

	private static String seconds(Duration duration) {
		return String.format("%.1fs", duration.toMillis() / 1000.0);
	}

	/** One broker restart: when its node was stopped, and when it served requests again. */
	record Restart(String name, long stoppedAt, long readyAt) {

	}

}
