package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 9 of the exactly-once proof: a registry outage on the OUTPUT side under
 * {@code invalid-input.policy=quarantine}. The worker reads raw Avro (its input never
 * touches the registry, so decoding succeeds throughout) and writes registry-framed Avro.
 * While the registry is down, encoding the output fails; that is a transient failure, not
 * invalid input: nothing may be quarantined and nothing committed. Once the registry is
 * back the output is exact and the quarantine topic empty.
 * <p>
 * What makes the outage bite: the registry client caches a (subject, schema) id after the
 * first successful look-up and never asks again, so a worker that has already written an
 * order would sail through any outage. The worker here is warm in every other way (started
 * with the registry up, consumers in their group, transactional producers initialised),
 * and the registry is stopped before the first order arrives, so the first output's schema
 * id must come from the registry while it is down. On the runtime before issue 12 this
 * fails: every output's {@code SerializationException} is taken for invalid input, so all
 * orders are quarantined and their offsets committed while the registry is down.
 */
class OutputRegistryOutageTests {

	private static final int RECORDS = 4_000;

	@Test
	void outputRegistryOutageUnderQuarantineQuarantinesNothingCommitsNothingAndEndsExact(@TempDir Path workDir)
			throws Exception {
		long started = System.nanoTime();
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start(); TestSchemaRegistry registry = TestSchemaRegistry.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS, -1, true);
			pipeline.createTopics(4, (short) 1);
			pipeline.createQuarantineTopic();
			// Registry mode (auto-registration on) for the output only: raw Avro in.
			SampleAppProcess worker = pipeline.startWorker(workDir, "--lockstep.registry.url=" + registry.url(),
					"--lockstep.registry.retries=0", "--lockstep.registry.timeout=1s",
					"--lockstep.workers.normalizer.value.codec=raw-avro",
					"--lockstep.workers.normalizer.output-value.codec=registry-avro",
					"--lockstep.workers.normalizer.output-value.type=dev.lockstep.sample.Order",
					"--lockstep.workers.normalizer.invalid-input.policy=quarantine",
					"--lockstep.workers.normalizer.invalid-input.quarantine-topic=" + OrderPipeline.QUARANTINE);
			try {
				worker.awaitUntil("both slots' consumers in the group", Duration.ofMinutes(4),
						() -> pipeline.groupMembers() == 2);
				registry.stop();
				pipeline.seed();
				worker.awaitHolding("nothing committed while the registry is down (no group offsets)",
						Duration.ofSeconds(20), Duration.ofSeconds(45), () -> pipeline.groupOffsets().isEmpty());
				assertThat(pipeline.readCommitted(OrderPipeline.QUARANTINE))
					.as(() -> "records quarantined while the registry is down\n" + worker.logTail())
					.isEmpty();
				assertThat(pipeline.readCommitted(OrderPipeline.OUTPUT))
					.as(() -> "output committed while the registry is down\n" + worker.logTail())
					.isEmpty();
				assertThat(worker.isAlive()).as(worker::logTail).isTrue();
				registry.restart();
				worker.awaitUntil("group lag 0 after the registry restart", Duration.ofMinutes(5),
						() -> pipeline.groupLag() == 0);
			}
			finally {
				worker.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput("output-registry-outage", 0, 0, started);
			assertThat(pipeline.readCommitted(OrderPipeline.QUARANTINE)).as("records in the quarantine topic").isEmpty();
		}
	}

}
