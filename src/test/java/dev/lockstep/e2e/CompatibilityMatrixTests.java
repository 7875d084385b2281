package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lockstep.test.kafka.FinalizedFeatures;
import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.KafkaBrokerProcess;
import dev.lockstep.test.kafka.KafkaBrokerSpec;
import dev.lockstep.test.kafka.KafkaRelease;
import org.apache.kafka.common.GroupType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compatibility matrix: the kill storm, broker restart and zombie scenarios on each
 * cluster teams run (Kafka 3.9, 4.1 and 4.4), under each Kafka client line the sample is
 * built on (4.1, 4.2 and 4.4: {@link KafkaClients}), every broker a separate process
 * started from that release's own jars. Each run checks that the cluster is what its row
 * says (the finalized features as the running sample shows them on
 * {@code /actuator/lockstep}, and the group type the broker reports for the worker's
 * group) and prints one {@code E2E <scenario>[<cluster>]} line. {@code -Pmatrix} runs each
 * scenario on every row with the scenarios' own record counts. {@code ./mvnw verify} runs
 * the three faults one after another on 6,000 orders
 * ({@link FaultScenarios#oneAfterAnother}) on one row per broker line and per client line
 * ({@link #quickRun()}).
 */
@Tag("matrix")
class CompatibilityMatrixTests {

	static final String FULL = "lockstep.e2e.matrix.full";

	private static final int KILL_STORM_RECORDS = 100_000;

	private static final int KILLS = 20;

	private static final int BROKER_RESTART_RECORDS = 50_000;

	private static final int ZOMBIE_RECORDS = 50_000;

	private static final int QUICK_RECORDS = 6_000;

	private static final int QUICK_KILLS = 2;

	// -Dlockstep.e2e.matrix.clusters=KAFKA_39_CLASSIC,... runs those rows only.
	private static final String CLUSTERS = System.getProperty("lockstep.e2e.matrix.clusters", "");

	/** Every row, for the scenarios one by one: under -Pmatrix only. */
	static Stream<Cluster> fullRun() {
		return selected(Stream.of(Cluster.values()));
	}

	/**
	 * The rows of the quick pass, in ./mvnw verify: one short combination per broker line
	 * and per client line. Kafka 4.1 as it comes (classic) is scenarios 1, 2 and 4's; the
	 * consumer protocol on transactions v1 runs its two halves on rows of their own; the
	 * rest run under -Pmatrix only.
	 */
	static Stream<Cluster> quickRun() {
		return selected(Stream.of(Cluster.KAFKA_39_CLASSIC, Cluster.KAFKA_41_CLASSIC_TV1, Cluster.KAFKA_41_CONSUMER_TV2,
				Cluster.KAFKA_44_CLASSIC_CLIENTS_42, Cluster.KAFKA_44_CONSUMER_CLIENTS_44));
	}

	/**
	 * The rows given, or those -Dlockstep.e2e.matrix.clusters names among them. A selection
	 * that leaves a run no row fails it: JUnit refuses a parameterized test without cases.
	 */
	static Stream<Cluster> selected(Stream<Cluster> clusters) {
		return clusters.filter((cluster) -> CLUSTERS.isBlank() || List.of(CLUSTERS.split(",")).contains(cluster.name()));
	}

	/**
	 * The rows of the matrix.
	 */
	enum Cluster {

		/** Kafka 3.9: transactions before KIP-890, classic groups only. */
		KAFKA_39_CLASSIC("3.9", -1, GroupType.CLASSIC, KafkaClients.KAFKA_41),

		/** Kafka 4.1 with transactions v1 pinned (a cluster not yet upgraded to v2), classic groups. */
		KAFKA_41_CLASSIC_TV1("4.1", 1, GroupType.CLASSIC, KafkaClients.KAFKA_41),

		/** Kafka 4.1 as it comes: transactions v2, classic groups. */
		KAFKA_41_CLASSIC_TV2("4.1", -1, GroupType.CLASSIC, KafkaClients.KAFKA_41),

		/** Kafka 4.1 with transactions v1 pinned, the workers on the consumer group protocol (KIP-848). */
		KAFKA_41_CONSUMER_TV1("4.1", 1, GroupType.CONSUMER, KafkaClients.KAFKA_41),

		/** Kafka 4.1 as it comes, the workers on the consumer group protocol (KIP-848). */
		KAFKA_41_CONSUMER_TV2("4.1", -1, GroupType.CONSUMER, KafkaClients.KAFKA_41),

		/** Kafka 4.4, the newest line, as it comes: transactions v2, classic groups. */
		KAFKA_44_CLASSIC("4.4", -1, GroupType.CLASSIC, KafkaClients.KAFKA_41),

		/** Kafka 4.4 as it comes, the workers on the consumer group protocol (KIP-848). */
		KAFKA_44_CONSUMER("4.4", -1, GroupType.CONSUMER, KafkaClients.KAFKA_41),

		/** Kafka 3.9 under the Kafka 4.2 clients of Spring Boot 4.1, classic groups. */
		KAFKA_39_CLASSIC_CLIENTS_42("3.9", -1, GroupType.CLASSIC, KafkaClients.KAFKA_42),

		/** Kafka 4.1 under the Kafka 4.2 clients, the consumer group protocol. */
		KAFKA_41_CONSUMER_CLIENTS_42("4.1", -1, GroupType.CONSUMER, KafkaClients.KAFKA_42),

		/** Kafka 4.4 under the Kafka 4.2 clients, classic groups. */
		KAFKA_44_CLASSIC_CLIENTS_42("4.4", -1, GroupType.CLASSIC, KafkaClients.KAFKA_42),

		/** Kafka 3.9 under the Kafka 4.4 clients (pinned on Spring Boot 4.1), classic groups. */
		KAFKA_39_CLASSIC_CLIENTS_44("3.9", -1, GroupType.CLASSIC, KafkaClients.KAFKA_44),

		/** Kafka 4.1 under the Kafka 4.4 clients, classic groups. */
		KAFKA_41_CLASSIC_CLIENTS_44("4.1", -1, GroupType.CLASSIC, KafkaClients.KAFKA_44),

		/** Kafka 4.4 under the Kafka 4.4 clients, the consumer group protocol: the newest of both. */
		KAFKA_44_CONSUMER_CLIENTS_44("4.4", -1, GroupType.CONSUMER, KafkaClients.KAFKA_44);

		private final String release;

		private final int transactionVersion;

		private final GroupType groupProtocol;

		private final KafkaClients clients;

		Cluster(String release, int transactionVersion, GroupType groupProtocol, KafkaClients clients) {
			this.release = release;
			this.transactionVersion = transactionVersion;
			this.groupProtocol = groupProtocol;
			this.clients = clients;
		}

		KafkaBrokerSpec broker() {
			KafkaBrokerSpec spec = KafkaBrokerSpec.defaults().withRelease(KafkaRelease.named(this.release));
			if (this.transactionVersion >= 0) {
				spec = spec.withFeature(FinalizedFeatures.TRANSACTION_VERSION, this.transactionVersion);
			}
			// As short as the classic workers' session (OrderPipeline): a killed member's
			// partitions move on within seconds. The broker's own minimums must allow it.
			return spec.withOverrides(Map.of("group.consumer.session.timeout.ms", "6000",
					"group.consumer.min.session.timeout.ms", "6000", "group.consumer.heartbeat.interval.ms", "1000",
					"group.consumer.min.heartbeat.interval.ms", "1000"));
		}

		/**
		 * Whether the row's broker keeps every committed transaction readable across a
		 * restart: not Kafka 4.4.0's (BrokerCrashDurabilityTests, docs/compatibility.md).
		 */
		boolean keepsCommitsAcrossRestarts() {
			return !this.release.equals("4.4");
		}

		/** The workers' group protocol in this row. */
		GroupType groupProtocol() {
			return this.groupProtocol;
		}

		/** A pipeline of the row's group protocol, its topics created with four partitions. */
		OrderPipeline pipeline(KafkaBroker broker, int records, short replicas) throws Exception {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), records)
				.groupProtocol(this.groupProtocol)
				.clients(this.clients);
			pipeline.createTopics(4, replicas);
			return pipeline;
		}

		/**
		 * What the cluster is, measured, and the workers' client line:
		 * {@code 3.9.2 classic transaction.version=0 clients=4.1}.
		 */
		String describe(KafkaBrokerProcess broker, OrderPipeline pipeline) throws Exception {
			FinalizedFeatures features = FinalizedFeatures.of(broker.bootstrapServers());
			GroupType type = pipeline.groupType();
			assertThat(type).as("the group type the broker reports").isEqualTo(this.groupProtocol);
			if (this.transactionVersion >= 0) {
				assertThat(features.level(FinalizedFeatures.TRANSACTION_VERSION)).isEqualTo((short) this.transactionVersion);
			}
			return KafkaRelease.named(this.release).version() + " " + type.toString().toLowerCase() + " "
					+ FinalizedFeatures.TRANSACTION_VERSION + "=" + features.level(FinalizedFeatures.TRANSACTION_VERSION)
					+ " clients=" + this.clients.line();
		}

		/**
		 * The cluster's features as the sample worker shows them on
		 * {@code /actuator/lockstep} (a worker started for it once the scenario is done):
		 * the levels the broker reports, the metadata version named as the row's line.
		 * @return {@code metadata.version=4.4-IV2}
		 */
		String featuresShown(KafkaBrokerProcess broker, OrderPipeline pipeline, Path workDir) throws Exception {
			Actuator actuator = Actuator.onFreePort();
			SampleAppProcess worker = pipeline.startWorker(workDir, actuator.args("lockstep").toArray(String[]::new));
			JsonNode cluster;
			try {
				worker.awaitUntil("the cluster's features on /actuator/lockstep", Duration.ofMinutes(2),
						() -> actuator.json("/actuator/lockstep/normalizer").path("cluster").has("metadataVersion"));
				cluster = actuator.json("/actuator/lockstep/normalizer").path("cluster");
			}
			finally {
				worker.stop(Duration.ofSeconds(60));
			}
			FinalizedFeatures reported = FinalizedFeatures.of(broker.bootstrapServers());
			reported.levels().forEach((feature, level) -> assertThat(cluster.path("finalized").path(feature).asInt(-1))
				.as("%s on /actuator/lockstep: %s", feature, cluster)
				.isEqualTo(level.intValue()));
			String metadataVersion = cluster.path("metadataVersion").asText();
			assertThat(metadataVersion).as("metadata version on /actuator/lockstep").startsWith(this.release + "-");
			return FinalizedFeatures.METADATA_VERSION + "=" + metadataVersion;
		}

	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("quickRun")
	@DisabledIfSystemProperty(named = FULL, matches = "true", disabledReason = "-Pmatrix runs each scenario on its own")
	void faultsOneAfterAnother(Cluster cluster, @TempDir Path workDir) throws Exception {
		// Kills: the worker's and the broker's; restarts: every worker started (the storm's,
		// the one the broker restarts under, the second instance) and the broker. A Kafka 4.4.0
		// broker holds back committed transactions across a restart (BrokerCrashDurabilityTests):
		// its rows restart no broker here, and the broker restart rows of -Pmatrix show it.
		boolean restartBroker = cluster.keepsCommitsAcrossRestarts();
		int brokerKills = restartBroker ? 1 : 0;
		run(cluster, "faults", QUICK_RECORDS, QUICK_KILLS + brokerKills, QUICK_KILLS + 3 + brokerKills, workDir,
				(pipeline, broker) -> FaultScenarios.oneAfterAnother(pipeline, broker, workDir, QUICK_RECORDS,
						QUICK_KILLS, restartBroker));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("fullRun")
	@EnabledIfSystemProperty(named = FULL, matches = "true", disabledReason = "under -Pmatrix only")
	void killStorm(Cluster cluster, @TempDir Path workDir) throws Exception {
		run(cluster, "kill-storm", KILL_STORM_RECORDS, KILLS, KILLS + 1, workDir, (pipeline, broker) -> {
			pipeline.seed();
			FaultScenarios.killStorm(pipeline, workDir, KILLS);
		});
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("fullRun")
	@EnabledIfSystemProperty(named = FULL, matches = "true", disabledReason = "under -Pmatrix only")
	void brokerRestart(Cluster cluster, @TempDir Path workDir) throws Exception {
		run(cluster, "broker-restart", BROKER_RESTART_RECORDS, 2, 2, workDir, (pipeline, broker) -> {
			pipeline.seed();
			FaultScenarios.brokerRestarts(pipeline, broker, workDir, 2, BROKER_RESTART_RECORDS / 10);
		});
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("fullRun")
	@EnabledIfSystemProperty(named = FULL, matches = "true", disabledReason = "under -Pmatrix only")
	void zombie(Cluster cluster, @TempDir Path workDir) throws Exception {
		run(cluster, "zombie", ZOMBIE_RECORDS, 0, 1, workDir,
				(pipeline, broker) -> FaultScenarios.zombie(pipeline, workDir, ZOMBIE_RECORDS));
	}

	/** Runs a scenario on a broker of the row and checks the output is exact. */
	private static void run(Cluster cluster, String scenario, int records, int kills, int restarts, Path workDir,
			Scenario body) throws Exception {
		long started = System.nanoTime();
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start(cluster.broker())) {
			OrderPipeline pipeline = cluster.pipeline(broker, records, (short) 1);
			body.run(pipeline, broker);
			String features = cluster.featuresShown(broker, pipeline, workDir);
			pipeline.assertExactOutput(scenario + "[" + cluster.describe(broker, pipeline) + " " + features + "]", kills,
					restarts, started);
		}
	}

	@FunctionalInterface
	private interface Scenario {

		void run(OrderPipeline pipeline, KafkaBrokerProcess broker) throws Exception;

	}

}
