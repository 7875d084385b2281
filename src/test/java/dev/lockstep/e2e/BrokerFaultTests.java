package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import dev.lockstep.test.kafka.KafkaBrokerProcess;
import dev.lockstep.test.kafka.KafkaClusterProcesses;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenarios 2 to 5 of the exactly-once proof: the single broker (its own process)
 * SIGKILLed and restarted twice while the worker runs; one node of a three-node cluster
 * (replication factor 3, min ISR 2) killed and brought back; a second worker process with
 * the same transactional id, which fences the first; and the broker paused (SIGSTOP) until
 * a commit times out, then resumed, which must retry the commit without aborting. Output
 * exact in every one. The broker faults run once, or as often as {@link ScenarioRuns} says.
 */
@Tag("broker-faults")
class BrokerFaultTests {

	private static final int RECORDS = Integer.getInteger("lockstep.e2e.records", 100_000) / 2;

	// Few enough to be processed well within one 20 s transaction on a slow machine.
	private static final int PAUSED_RECORDS = 10_000;

	// The commit's two calls: the offsets joining the transaction, and the commit itself.
	private static final Pattern COMMIT_TIMED_OUT = Pattern.compile("(sending offsets|commit) timed out, retrying");

	@ParameterizedTest(name = "run {0}")
	@MethodSource("dev.lockstep.e2e.ScenarioRuns#runs")
	void brokerKilledAndRestartedTwiceMidRun(int run, @TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS);
			pipeline.createTopics(4, (short) 1);
			pipeline.seed();
			FaultScenarios.brokerRestarts(pipeline, broker, workDir, 2, 5_000);
			pipeline.assertExactOutput("broker-restart", 2, 2, started);
		}
	}

	@ParameterizedTest(name = "run {0}")
	@MethodSource("dev.lockstep.e2e.ScenarioRuns#runs")
	void groupCoordinatorNodeOfAThreeNodeClusterKilledAndBroughtBackMidRun(int run, @TempDir Path workDir)
			throws Exception {
		long started = System.nanoTime();
		try (KafkaClusterProcesses cluster = KafkaClusterProcesses.startThreeNodes()) {
			OrderPipeline pipeline = new OrderPipeline(cluster.bootstrapServers(), RECORDS);
			pipeline.createTopics(4, (short) 3);
			pipeline.seed();
			SampleAppProcess worker = pipeline.startWorker(workDir);
			try {
				long target = pipeline.outputEndOffsets() + 10_000;
				worker.awaitUntil("10,000 outputs before the node kill", Duration.ofMinutes(4),
						() -> pipeline.outputEndOffsets() >= target);
				// The node the worker's group and offsets depend on: the harshest one to lose.
				KafkaBrokerProcess node = cluster.node(pipeline.groupCoordinator());
				node.kill();
				long withNodeDown = pipeline.outputEndOffsets() + 5_000;
				worker.awaitUntil("5,000 outputs with node " + node.nodeId() + " down", Duration.ofMinutes(4),
						() -> pipeline.outputEndOffsets() >= withNodeDown);
				node.restart();
				worker.awaitUntil("group lag 0", Duration.ofMinutes(6), () -> pipeline.groupLag() == 0);
				assertThat(worker.isAlive()).as(worker::logTail).isTrue();
			}
			finally {
				worker.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput("cluster-node-restart", 1, 1, started);
		}
	}

	@ParameterizedTest(name = "run {0}")
	@MethodSource("dev.lockstep.e2e.ScenarioRuns#runs")
	void commitThatTimesOutWhileTheBrokerIsPausedIsRetriedWithoutAnAbortAndOutputStaysExact(int run,
			@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), PAUSED_RECORDS);
			pipeline.createTopics(4, (short) 1);
			pipeline.seed();
			// One slot (no rebalance to commit early) puts the whole input into one transaction
			// held open for 20 s, so the broker can be paused between the last send and the
			// commit; short client timeouts make the commit time out while it is paused, and a
			// long session keeps the group from expiring meanwhile, so the retried commit is
			// the one that lands. The actuator's metrics count the transactions.
			Actuator actuator = Actuator.onFreePort();
			List<String> args = new ArrayList<>(actuator.args("health,metrics"));
			args.addAll(List.of("--lockstep.workers.normalizer.concurrency=1",
					"--lockstep.workers.normalizer.transaction.max-records=" + (PAUSED_RECORDS + 1),
					"--lockstep.workers.normalizer.transaction.max-interval=20s",
					"--lockstep.workers.normalizer.transaction.timeout=60s",
					"--lockstep.workers.normalizer.producer.max.block.ms=2000",
					"--lockstep.workers.normalizer.producer.request.timeout.ms=1500",
					"--lockstep.workers.normalizer.producer.delivery.timeout.ms=3000",
					"--lockstep.workers.normalizer.consumer.session.timeout.ms=60000"));
			SampleAppProcess worker = pipeline.startWorker(workDir, args.toArray(String[]::new));
			try {
				worker.awaitUntil("all " + PAUSED_RECORDS + " outputs sent in the open transaction", Duration.ofMinutes(5),
						() -> pipeline.outputEndOffsets() >= PAUSED_RECORDS);
				assertThat(pipeline.groupLag()).as(() -> "committed before the pause\n" + worker.logTail())
					.isEqualTo(PAUSED_RECORDS);
				broker.pause();
				try {
					worker.awaitUntil("the worker to log a commit call that timed out", Duration.ofMinutes(3),
							() -> COMMIT_TIMED_OUT.matcher(worker.output()).find());
				}
				finally {
					broker.resume();
				}
				worker.awaitUntil("group lag 0", Duration.ofMinutes(6), () -> pipeline.groupLag() == 0);
				assertThat(worker.isAlive()).as(worker::logTail).isTrue();
				// The timed-out call is retried as the same call: the open transaction is the one
				// committed, none is aborted (docs/reliability.md, scenario 5).
				assertThat(actuator.counter("lockstep.worker.transactions", "result:committed"))
					.as(() -> "committed transactions (lockstep.worker.transactions)\n" + worker.logTail())
					.isPositive();
				assertThat(actuator.counter("lockstep.worker.transactions", "result:aborted"))
					.as(() -> "aborted transactions (lockstep.worker.transactions)\n" + worker.logTail())
					.isZero();
				assertThat(worker.output()).as("the worker's log").doesNotContain("recovering (");
			}
			finally {
				worker.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput("broker-pause", 0, 0, started);
		}
	}

	@Test
	void secondInstanceWithTheSameTransactionalIdFencesTheFirst(@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS);
			pipeline.createTopics(4, (short) 1);
			FaultScenarios.zombie(pipeline, workDir, RECORDS);
			pipeline.assertExactOutput("zombie", 0, 1, started);
		}
	}

}
