package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 7 of the exactly-once proof, in registry mode: the schema registry stopped
 * mid-run and a worker started while it is down can commit nothing (it cannot resolve
 * schemas), never blocks or quarantines good records, and finishes exactly once the
 * registry is back. Run under both invalid-input policies: under {@code quarantine} the
 * quarantine topic must stay empty, so that "a registry outage never quarantines" is
 * checked where it could go wrong.
 */
class RegistryOutageTests {

	private static final int RECORDS = 20_000;

	@Test
	void noCommitWhileTheRegistryIsDownAndExactOutputAfterUnderBlock(@TempDir Path workDir) throws Exception {
		run(workDir, "block", "registry-outage");
	}

	@Test
	void noCommitAndNothingQuarantinedWhileTheRegistryIsDownAndExactOutputAfterUnderQuarantine(@TempDir Path workDir)
			throws Exception {
		run(workDir, "quarantine", "registry-outage-quarantine");
	}

	private void run(Path workDir, String policy, String scenario) throws Exception {
		long started = System.nanoTime();
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start(); TestSchemaRegistry registry = TestSchemaRegistry.start()) {
			long id = registry.register(OrderPipeline.INPUT + "-value", Orders.SCHEMA);
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS, id);
			pipeline.createTopics(4, (short) 1);
			pipeline.createQuarantineTopic();
			// Half the input now; the rest once the registry is down, so that the fresh worker
			// has input left however fast the first one was.
			pipeline.seed(1, RECORDS / 2);
			List<String> args = new ArrayList<>(List.of("--lockstep.registry.url=" + registry.url(),
					"--lockstep.registry.retries=0", "--lockstep.registry.timeout=1s",
					"--lockstep.workers.normalizer.invalid-input.policy=" + policy));
			if (policy.equals("quarantine")) {
				args.add("--lockstep.workers.normalizer.invalid-input.quarantine-topic=" + OrderPipeline.QUARANTINE);
			}
			SampleAppProcess first = pipeline.startWorker(workDir, args.toArray(String[]::new));
			long target = 2_000;
			try {
				first.awaitUntil("2,000 outputs of the first worker", Duration.ofMinutes(4),
						() -> pipeline.outputEndOffsets() >= target);
				registry.stop();
			}
			finally {
				first.kill();
			}
			pipeline.seed(RECORDS / 2 + 1, RECORDS);
			long lagWhenDown = pipeline.groupLag();
			assertThat(lagWhenDown).isPositive();
			SampleAppProcess second = pipeline.startWorker(workDir, args.toArray(String[]::new));
			try {
				// A fresh process has no cached schema: with the registry down, nothing commits.
				second.awaitHolding("group lag " + lagWhenDown + " (nothing committed while the registry is down)",
						Duration.ofSeconds(10), Duration.ofSeconds(60), () -> pipeline.groupLag() == lagWhenDown);
				assertThat(second.isAlive()).as(second::logTail).isTrue();
				assertThat(second.output()).doesNotContain("BLOCKED").doesNotContain("uarantined");
				registry.restart();
				second.awaitUntil("group lag 0 after the registry restart", Duration.ofMinutes(5),
						() -> pipeline.groupLag() == 0);
			}
			finally {
				second.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput(scenario, 1, 1, started);
			assertThat(pipeline.readCommitted(OrderPipeline.QUARANTINE)).as("records in the quarantine topic").isEmpty();
		}
	}

}
