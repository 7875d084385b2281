package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lockstep.test.kafka.InJvmKafkaBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 11 of the exactly-once proof: a worker that can only abort. With
 * {@code producer.max.request.size=40} every send fails ({@code RecordTooLargeException}),
 * so every transaction is aborted and nothing is ever committed. That must not look
 * healthy, nor stop the worker on a guess: within 30 s the {@code lockstep} health
 * component is RECOVERING (its slots STALLED, with the last error), which probes read as up
 * (HTTP 200), nothing is committed; restarted with a sane setting, the worker is UP again
 * and the output exact.
 * <p>
 * On the runtime before issue 12 the health stays UP throughout the abort loop; before
 * issue 33 it was DOWN, which a probe would have restarted for a cause no restart changes.
 */
class AbortLoopTests {

	private static final int RECORDS = 2_000;

	private static final Duration RECOVERING_WITHIN = Duration.ofSeconds(30);

	@Test
	void workerThatCanOnlyAbortShowsLockstepHealthRecoveringCommitsNothingAndIsUpAndExactOnceTheCauseIsRemoved(
			@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS);
			pipeline.createTopics(4, (short) 1);
			pipeline.seed();
			Actuator actuator = Actuator.onFreePort();
			List<String> stalling = new ArrayList<>(actuator.args("health"));
			stalling.add("--lockstep.workers.normalizer.producer.max.request.size=40");
			SampleAppProcess stalled = pipeline.startWorker(workDir, stalling.toArray(String[]::new));
			try {
				// The 30 s count from when the worker is up and its slots hold their partitions.
				stalled.awaitUntil("the worker's slots to start (lockstep health answering, consumers in the group)",
						Duration.ofMinutes(4), () -> !lockstepStatus(actuator).isEmpty() && pipeline.groupMembers() == 2);
				try {
					stalled.awaitUntil("lockstep health RECOVERING while every transaction aborts",
							RECOVERING_WITHIN, () -> lockstepStatus(actuator).equals("RECOVERING"));
				}
				catch (AssertionError ex) {
					throw new AssertionError("/actuator/health/lockstep at the end of the wait: "
							+ actuator.get("/actuator/health/lockstep") + "\n" + ex.getMessage(), ex);
				}
				JsonNode health = actuator.json("/actuator/health/lockstep");
				JsonNode slots = health.at("/details/normalizer/slots");
				if (slots.isArray()) {
					List<String> statuses = new ArrayList<>();
					slots.forEach((slot) -> statuses.add(slot.path("status").asText()));
					assertThat(statuses).as("slot statuses in %s", health).contains("STALLED");
				}
				assertThat(health.toString()).as("the last error in the health details")
					.containsAnyOf("RecordTooLarge", "max.request.size");
				assertThat(actuator.statusCode("/actuator/health/lockstep")).as("lockstep health's HTTP status")
					.isEqualTo(200);
				assertThat(actuator.json("/actuator/health").path("status").asText()).as("the aggregate health")
					.isEqualTo("UP");
				assertThat(pipeline.groupOffsets()).as(() -> "committed offsets\n" + stalled.logTail()).isEmpty();
				assertThat(pipeline.readCommitted(OrderPipeline.OUTPUT)).as("committed output").isEmpty();
			}
			finally {
				stalled.stop(Duration.ofSeconds(60));
			}
			SampleAppProcess sane = pipeline.startWorker(workDir, actuator.args("health").toArray(String[]::new));
			try {
				sane.awaitUntil("group lag 0 with a sane max.request.size", Duration.ofMinutes(4),
						() -> pipeline.groupLag() == 0);
				sane.awaitUntil("lockstep health UP", Duration.ofMinutes(2),
						() -> lockstepStatus(actuator).equals("UP"));
			}
			finally {
				sane.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput("abort-loop", 0, 1, started);
		}
	}

	/** The {@code lockstep} health component's status, or an empty string while there is none. */
	private static String lockstepStatus(Actuator actuator) {
		return actuator.json("/actuator/health/lockstep").path("status").asText("");
	}

}
