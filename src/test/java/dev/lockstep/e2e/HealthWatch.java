package dev.lockstep.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A probe's view of a running worker, every 500 ms, as a Kubernetes probe would see it:
 * how long {@code GET /actuator/health} took to answer, and every status its
 * {@code lockstep} and {@code kafka} components reported, in the order first seen.
 */
final class HealthWatch implements AutoCloseable {

	private static final Duration PROBE_EVERY = Duration.ofMillis(500);

	/** Kubernetes' default probe timeout. */
	static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

	private final Actuator actuator;

	private final Thread prober;

	private final Set<String> lockstepStatuses = new LinkedHashSet<>();

	private final Set<String> kafkaStatuses = new LinkedHashSet<>();

	private final long startedAt = System.nanoTime();

	// Answers slower than a probe's one-second timeout: when (seconds into the watch) and how long.
	private final List<String> slowAnswers = new ArrayList<>();

	private volatile boolean running = true;

	private volatile Duration slowestAnswer = Duration.ZERO;

	HealthWatch(Actuator actuator) {
		this.actuator = actuator;
		this.prober = new Thread(this::probe, "health-watch");
		this.prober.setDaemon(true);
		this.prober.start();
	}

	/** Every status the {@code lockstep} component reported, as {@code [UP, RECOVERING]}. */
	synchronized String lockstepStatuses() {
		return this.lockstepStatuses.toString();
	}

	/** The slowest answer of {@code /actuator/health} seen. */
	Duration slowestAnswer() {
		return this.slowestAnswer;
	}

	/** What the probe saw, for a scenario's line. */
	@Override
	public synchronized String toString() {
		return String.format("slowest /actuator/health answer %.1fs (over 1s, from the watch's start: %s); statuses seen: "
				+ "lockstep %s, kafka %s", this.slowestAnswer.toMillis() / 1000.0, this.slowAnswers,
				this.lockstepStatuses, this.kafkaStatuses);
	}

	private void probe() {
		while (this.running) {
			long started = System.nanoTime();
			JsonNode health = this.actuator.json("/actuator/health");
			Duration answer = Duration.ofNanos(System.nanoTime() - started);
			// No answer at all: the web server is not up yet (or any more).
			if (!health.isMissingNode()) {
				synchronized (this) {
					if (answer.compareTo(this.slowestAnswer) > 0) {
						this.slowestAnswer = answer;
					}
					if (answer.compareTo(PROBE_TIMEOUT) > 0) {
						this.slowAnswers.add(String.format("at %.1fs took %.1fs", (started - this.startedAt) / 1e9,
								answer.toMillis() / 1000.0));
					}
					record(this.lockstepStatuses, health.path("components").path("lockstep"));
					record(this.kafkaStatuses, health.path("components").path("kafka"));
				}
			}
			try {
				// The probe's period, not a wait for a condition.
				Thread.sleep(PROBE_EVERY.toMillis());
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	private static void record(Set<String> statuses, JsonNode component) {
		String status = component.path("status").asText("");
		if (!status.isEmpty()) {
			statuses.add(status);
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		this.prober.interrupt();
		this.prober.join(15_000);
	}

}
