package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 12 of the exactly-once proof: the sample worker under ordering {@code key}
 * with a processor that waits 5 ms per order (as for a remote call), 20,000 orders of
 * 10,000 customers on one partition, SIGKILLed 5 times at random moments with hundreds
 * of records in flight (the first run shows them on {@code /actuator/lockstep} and as
 * the in-flight gauge); the read_committed output must hold exactly one normalized
 * record per input, each customer's orders (and the partition's) in input order.
 */
class KeyOrderingKillStormTests {

	private static final int RECORDS = Integer.getInteger("lockstep.e2e.key-records", 20_000);

	private static final int CUSTOMERS = RECORDS / 2;

	private static final int KILLS = Integer.getInteger("lockstep.e2e.key-kills", 5);

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
	void outputIsExactAndInKeyOrderAfterSigkillsWithRecordsInFlight(@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS).keyedByCustomer(CUSTOMERS);
		pipeline.createTopics(1, (short) 1);
		pipeline.seed();
		Random random = new Random(20261201L);
		int kills = 0;
		while (kills < KILLS) {
			Actuator actuator = Actuator.onFreePort();
			SampleAppProcess worker = (kills == 0) ? startWorker(pipeline, workDir, actuator.args("lockstep,metrics"))
					: startWorker(pipeline, workDir, List.of());
			try {
				if (kills == 0) {
					worker.awaitUntil("records in flight on /actuator/lockstep and the in-flight gauge",
							Duration.ofMinutes(4), () -> inFlight(actuator) > 0 && inFlightGauge(actuator) > 0);
				}
				long target = pipeline.outputEndOffsets() + 500 + random.nextInt(2500);
				worker.awaitUntil("output end offsets " + target + " (or lag 0) before kill " + (kills + 1),
						Duration.ofMinutes(4), () -> pipeline.outputEndOffsets() >= target || !worker.isAlive()
								|| pipeline.groupLag() == 0);
				assertThat(worker.isAlive()).as(worker::logTail).isTrue();
			}
			finally {
				worker.kill();
			}
			kills++;
		}
		SampleAppProcess last = startWorker(pipeline, workDir, List.of());
		try {
			last.awaitUntil("group lag 0 after the last restart", Duration.ofMinutes(4), () -> pipeline.groupLag() == 0);
		}
		finally {
			last.stop(Duration.ofSeconds(60));
		}
		pipeline.assertExactOutput("key-ordering-kill-storm", kills, kills + 1, started);
	}

	private static SampleAppProcess startWorker(OrderPipeline pipeline, Path workDir, List<String> extraArgs) {
		List<String> args = new ArrayList<>(List.of("--lockstep.workers.normalizer.ordering=key",
				"--lockstep.workers.normalizer.max-in-flight=256", "--sample.processing-delay=5ms",
				"--lockstep.workers.normalizer.concurrency=1"));
		args.addAll(extraArgs);
		return pipeline.startWorker(workDir, args.toArray(String[]::new));
	}

	/** The slot's records in flight as the endpoint shows them, or -1 while it does not answer. */
	private static int inFlight(Actuator actuator) {
		return actuator.json("/actuator/lockstep/normalizer").at("/slots/0/inFlight").asInt(-1);
	}

	private static double inFlightGauge(Actuator actuator) {
		return actuator.json("/actuator/metrics/lockstep.worker.records.in.flight")
			.at("/measurements/0/value")
			.asDouble(-1);
	}

}
