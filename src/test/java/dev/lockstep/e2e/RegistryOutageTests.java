package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 7 of the exactly-once proof, in registry mode: the schema registry stopped
 * mid-run and a worker started while it is down can commit nothing (it cannot resolve
 * schemas), never blocks or quarantines good records, and finishes exactly once the
 * registry is back.
 */
class RegistryOutageTests {

	private static final int RECORDS = 20_000;

	@Test
	void noCommitWhileTheRegistryIsDownAndExactOutputAfter(@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start(); TestSchemaRegistry registry = TestSchemaRegistry.start()) {
			long id = registry.register(OrderPipeline.INPUT + "-value", Orders.SCHEMA);
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS, id);
			pipeline.createTopics(4, (short) 1);
			pipeline.seed();
			String registryMode = "--lockstep.registry.url=" + registry.url();
			SampleAppProcess first = pipeline.startWorker(workDir, registryMode, "--lockstep.registry.retries=0",
					"--lockstep.registry.timeout=1s");
			long target = 2_000;
			await().atMost(Duration.ofMinutes(2)).until(() -> pipeline.outputEndOffsets() >= target);
			registry.stop();
			first.kill();
			long lagWhenDown = pipeline.groupLag();
			assertThat(lagWhenDown).isPositive();
			SampleAppProcess second = pipeline.startWorker(workDir, registryMode, "--lockstep.registry.retries=0",
					"--lockstep.registry.timeout=1s");
			try {
				// A fresh process has no cached schema: with the registry down, nothing commits.
				await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(30))
					.until(() -> pipeline.groupLag() == lagWhenDown);
				assertThat(second.isAlive()).as(second::output).isTrue();
				assertThat(second.output()).doesNotContain("BLOCKED").doesNotContain("Quarantined");
				registry.restart();
				await().atMost(Duration.ofMinutes(3)).until(() -> pipeline.groupLag() == 0);
			}
			finally {
				second.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput("registry-outage", 1, 1, started);
		}
	}

}
