package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 1 of the exactly-once proof: the sample worker (concurrency 2 over 4
 * partitions) SIGKILLed at random moments at least 20 times and restarted each time; the
 * read_committed output must hold exactly one normalized record per input, keys,
 * headers and tombstones kept, per-partition order preserved, and the group's lag 0.
 */
class WorkerKillStormTests {

	private static final int RECORDS = Integer.getInteger("lockstep.e2e.records", 100_000);

	private static final int KILLS = Integer.getInteger("lockstep.e2e.kills", 20);

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
		OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS);
		pipeline.createTopics(4, (short) 1);
		pipeline.seed();
		Random random = new Random(20261129L);
		int kills = 0;
		while (kills < KILLS) {
			SampleAppProcess worker = pipeline.startWorker(workDir);
			try {
				long target = pipeline.outputEndOffsets() + 200 + random.nextInt(3000);
				// A random moment: after a random amount of output (or, for some, during start-up).
				// Output end offsets count commit markers too, so once every input is committed
				// (lag 0) the target may never be reached: the kill then comes at rest.
				if (random.nextInt(5) != 0) {
					worker.awaitUntil("output end offsets " + target + " (or lag 0) before kill " + (kills + 1),
							Duration.ofMinutes(4), () -> pipeline.outputEndOffsets() >= target || !worker.isAlive()
									|| pipeline.groupLag() == 0);
				}
				assertThat(worker.isAlive()).as(worker::logTail).isTrue();
			}
			finally {
				worker.kill();
			}
			kills++;
		}
		SampleAppProcess last = pipeline.startWorker(workDir);
		try {
			last.awaitUntil("group lag 0 after the last restart", Duration.ofMinutes(8), () -> pipeline.groupLag() == 0);
		}
		finally {
			last.stop(Duration.ofSeconds(60));
		}
		pipeline.assertExactOutput("kill-storm", kills, kills + 1, started);
	}

}
