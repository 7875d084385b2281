package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import dev.lockstep.test.kafka.KafkaBrokerProcess;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenarios 2 and 4 of the exactly-once proof: the single broker (its own process)
 * SIGKILLed and restarted twice while the worker runs; and a second worker process with
 * the same transactional id, which fences the first. Output exact in both.
 */
class BrokerFaultTests {

	private static final int RECORDS = Integer.getInteger("lockstep.e2e.records", 100_000) / 2;

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
			OrderPipeline.Result result = pipeline.verify();
			System.out.println(result.line("broker-restart", RECORDS, 2, 2, started));
			result.assertExact(RECORDS);
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
			OrderPipeline.Result result = pipeline.verify();
			System.out.println(result.line("zombie", RECORDS, 0, 1, started));
			result.assertExact(RECORDS);
		}
	}

}
