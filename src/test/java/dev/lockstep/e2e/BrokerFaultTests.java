package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import dev.lockstep.test.kafka.KafkaBrokerProcess;
import dev.lockstep.test.kafka.KafkaClusterProcesses;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenarios 2 to 5 of the exactly-once proof: the single broker (its own process)
 * SIGKILLed and restarted twice while the worker runs; one node of a three-node cluster
 * (replication factor 3, min ISR 2) killed and brought back; a second worker process with
 * the same transactional id, which fences the first; and the broker paused (SIGSTOP) until
 * a commit times out, then resumed. Output exact in every one.
 */
class BrokerFaultTests {

	private static final int RECORDS = Integer.getInteger("lockstep.e2e.records", 100_000) / 2;

	// Few enough to be processed well within one 20 s transaction on a slow machine.
	private static final int PAUSED_RECORDS = 10_000;

	// The commit's two calls: the offsets joining the transaction, and the commit itself.
	private static final Pattern COMMIT_TIMED_OUT = Pattern.compile("(sending offsets|commit) timed out, retrying");

	@Test
	void brokerKilledAndRestartedTwiceMidRun(@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS);
			pipeline.createTopics(4, (short) 1);
			pipeline.seed();
			SampleAppProcess worker = pipeline.startWorker(workDir);
			try {
				for (int restart = 1; restart <= 2; restart++) {
					long target = pipeline.outputEndOffsets() + 5_000;
					await().atMost(Duration.ofMinutes(2)).until(() -> pipeline.outputEndOffsets() >= target);
					broker.kill();
					broker.restart();
				}
				await().atMost(Duration.ofMinutes(5)).until(() -> pipeline.groupLag() == 0);
				assertThat(worker.isAlive()).as(worker::output).isTrue();
			}
			finally {
				worker.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput("broker-restart", 2, 2, started);
		}
	}

	@Test
	void groupCoordinatorNodeOfAThreeNodeClusterKilledAndBroughtBackMidRun(@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		try (KafkaClusterProcesses cluster = KafkaClusterProcesses.startThreeNodes()) {
			OrderPipeline pipeline = new OrderPipeline(cluster.bootstrapServers(), RECORDS);
			pipeline.createTopics(4, (short) 3);
			pipeline.seed();
			SampleAppProcess worker = pipeline.startWorker(workDir);
			try {
				long target = pipeline.outputEndOffsets() + 10_000;
				await().atMost(Duration.ofMinutes(2)).until(() -> pipeline.outputEndOffsets() >= target);
				// The node the worker's group and offsets depend on: the harshest one to lose.
				KafkaBrokerProcess node = cluster.node(pipeline.groupCoordinator());
				node.kill();
				long withNodeDown = pipeline.outputEndOffsets() + 5_000;
				await().atMost(Duration.ofMinutes(2)).until(() -> pipeline.outputEndOffsets() >= withNodeDown);
				node.restart();
				await().atMost(Duration.ofMinutes(5)).until(() -> pipeline.groupLag() == 0);
				assertThat(worker.isAlive()).as(worker::output).isTrue();
			}
			finally {
				worker.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput("cluster-node-restart", 1, 1, started);
		}
	}

	@Test
	void commitThatTimesOutWhileTheBrokerIsPausedIsRetriedAndOutputStaysExact(@TempDir Path workDir)
			throws Exception {
		long started = System.nanoTime();
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), PAUSED_RECORDS);
			pipeline.createTopics(4, (short) 1);
			pipeline.seed();
			// One slot (no rebalance to commit early) puts the whole input into one transaction
			// held open for 20 s, so the broker can be paused between the last send and the
			// commit; short client timeouts make the commit time out while it is paused, and a
			// long session keeps the group from expiring meanwhile, so the retried commit is
			// the one that lands.
			SampleAppProcess worker = pipeline.startWorker(workDir, "--lockstep.workers.normalizer.concurrency=1",
					"--lockstep.workers.normalizer.transaction.max-records=" + (PAUSED_RECORDS + 1),
					"--lockstep.workers.normalizer.transaction.max-interval=20s",
					"--lockstep.workers.normalizer.transaction.timeout=60s",
					"--lockstep.workers.normalizer.producer.max.block.ms=2000",
					"--lockstep.workers.normalizer.producer.request.timeout.ms=1500",
					"--lockstep.workers.normalizer.producer.delivery.timeout.ms=3000",
					"--lockstep.workers.normalizer.consumer.session.timeout.ms=60000");
			try {
				await().atMost(Duration.ofMinutes(2)).until(() -> pipeline.outputEndOffsets() >= PAUSED_RECORDS);
				assertThat(pipeline.groupLag()).as("committed before the pause").isEqualTo(PAUSED_RECORDS);
				broker.pause();
				try {
					await().atMost(Duration.ofMinutes(1))
						.until(() -> COMMIT_TIMED_OUT.matcher(worker.output()).find());
				}
				finally {
					broker.resume();
				}
				await().atMost(Duration.ofMinutes(5)).until(() -> pipeline.groupLag() == 0);
				assertThat(worker.isAlive()).as(worker::output).isTrue();
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
			pipeline.seed(1, RECORDS / 2);
			SampleAppProcess first = pipeline.startWorker(workDir);
			SampleAppProcess second = null;
			try {
				long target = pipeline.outputEndOffsets() + 5_000;
				await().atMost(Duration.ofMinutes(2)).until(() -> pipeline.outputEndOffsets() >= target);
				second = pipeline.startWorker(workDir);
				// Once the second instance's consumers joined (its producers initialised the same
				// transactional ids before that), new input makes the first commit again: fenced.
				await().atMost(Duration.ofMinutes(2)).until(() -> pipeline.groupMembers() == 4);
				pipeline.seed(RECORDS / 2 + 1, RECORDS);
				try {
					await().atMost(Duration.ofMinutes(2)).until(() -> first.output().contains("FENCED"));
				}
				catch (ConditionTimeoutException ex) {
					String out = first.output();
					throw new AssertionError("first instance never reported FENCED; its output ends with:\n"
							+ out.substring(Math.max(0, out.length() - 6000)), ex);
				}
				assertThat(first.output()).contains("took over");
				await().atMost(Duration.ofMinutes(5)).until(() -> pipeline.groupLag() == 0);
			}
			finally {
				first.stop(Duration.ofSeconds(60));
				if (second != null) {
					second.stop(Duration.ofSeconds(60));
				}
			}
			pipeline.assertExactOutput("zombie", 0, 1, started);
		}
	}

}
