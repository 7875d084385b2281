package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 6 of the exactly-once proof: one malformed value among 10,000. Under
 * {@code block} nothing after it is committed until an operator skips it through
 * {@code /actuator/lockstep}; under {@code quarantine} it lands in the quarantine topic in
 * the same transactions as the good records.
 */
class PoisonPillTests {

	private static final int RECORDS = 10_000;

	private static final long BAD = 5_001;

	@Test
	void blockHoldsAtThePoisonPillUntilAnOperatorSkipsIt(@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS);
			pipeline.createTopics(1, (short) 1);
			pipeline.seed(1, RECORDS, Set.of(BAD));
			Actuator actuator = Actuator.onFreePort();
			List<String> args = new ArrayList<>(actuator.args("health,lockstep"));
			args.add("--management.endpoint.lockstep.access=unrestricted");
			SampleAppProcess worker = pipeline.startWorker(workDir, args.toArray(String[]::new));
			try {
				worker.awaitUntil("the worker to be BLOCKED at the pill", Duration.ofMinutes(4),
						() -> actuator.get("/actuator/lockstep/normalizer").contains("\"status\":\"BLOCKED\""));
				// Nothing past the pill: the committed offset is the pill's, the output the orders before it.
				assertThat(pipeline.groupLag()).isEqualTo(RECORDS - BAD + 1);
				assertThat(pipeline.readCommitted(OrderPipeline.OUTPUT)).hasSize((int) BAD - 1);
				assertThat(actuator.post("/actuator/lockstep/normalizer", "{\"action\":\"skip\"}")).isEqualTo(200);
				worker.awaitUntil("group lag 0 after the skip", Duration.ofMinutes(4), () -> pipeline.groupLag() == 0);
			}
			finally {
				worker.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput("poison-pill-block", Set.of(BAD), 0, 0, started);
		}
	}

	@Test
	void quarantineMovesThePoisonPillAsideInTheSameTransactions(@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS);
			pipeline.createTopics(1, (short) 1);
			pipeline.createQuarantineTopic();
			pipeline.seed(1, RECORDS, Set.of(BAD));
			SampleAppProcess worker = pipeline.startWorker(workDir,
					"--lockstep.workers.normalizer.invalid-input.policy=quarantine",
					"--lockstep.workers.normalizer.invalid-input.quarantine-topic=" + OrderPipeline.QUARANTINE);
			try {
				worker.awaitUntil("group lag 0", Duration.ofMinutes(4), () -> pipeline.groupLag() == 0);
			}
			finally {
				worker.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput("poison-pill-quarantine", Set.of(BAD), 0, 0, started);
			List<ConsumerRecord<byte[], byte[]>> quarantined = pipeline.readCommitted(OrderPipeline.QUARANTINE);
			assertThat(quarantined).singleElement().satisfies((record) -> {
				assertThat(new String(record.key())).isEqualTo("order-" + BAD);
				assertThat(record.value()).isEqualTo(OrderPipeline.MALFORMED);
				assertThat(new String(record.headers().lastHeader("lockstep.error.offset").value()))
					.isEqualTo(Long.toString(BAD - 1));
			});
		}
	}

}
