package dev.lockstep.e2e;

import java.nio.file.Path;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
		FaultScenarios.killStorm(pipeline, workDir, KILLS);
		pipeline.assertExactOutput("kill-storm", KILLS, KILLS + 1, started);
	}

}
