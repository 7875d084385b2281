package dev.lockstep.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A probe's view of a running worker, every 500 ms, as a Kubernetes probe would see it:
 * how long {@code GET /actuator/health} took to answer (a request that got no answer
 * counts as one that failed), and every status its {@code lockstep} and {@code kafka}
 * components reported, in the order first seen. Start it once the worker has answered.
 */
final class HealthWatch implements AutoCloseable {

	/** Kubernetes' default probe timeout. */
	static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

	private static final Duration PROBE_EVERY = Duration.ofMillis(500);

	private final Actuator actuator;

	private final long startedAt = System.nanoTime();

	private final Set<String> lockstepStatuses = new LinkedHashSet<>();

	private final Set<String> kafkaStatuses = new LinkedHashSet<>();

	// Probes that failed (no answer) or took over PROBE_TIMEOUT: when, into the watch, and how long.
	private final List<String> failedProbes = new ArrayList<>();

	private final Thread prober;

	private volatile boolean running = true;

	private int probes;

	private Duration slowestAnswer = Duration.ZERO;

	HealthWatch(Actuator actuator) {
		this.actuator = actuator;
		this.prober = new Thread(this::probe, "health-watch");
		this.prober.setDaemon(true);
		this.prober.start();
	}

	/** Every status the {@code lockstep} component reported, as {@code [UP, RECOVERING]}. */
	synchronized Set<String> lockstepStatuses() {
		return Set.copyOf(this.lockstepStatuses);
	}

	/** Every status the {@code kafka} component reported. */
	synchronized Set<String> kafkaStatuses() {
		return Set.copyOf(this.kafkaStatuses);
	}

	/** The probes that got no answer or one slower than {@link #PROBE_TIMEOUT}. */
	synchronized List<String> failedProbes() {
		return List.copyOf(this.failedProbes);
	}

	/** How many probes were sent. */
	synchronized int probes() {
		return this.probes;
	}

	/** What the probe saw, for a scenario's line. */
	@Override
	public synchronized String toString() {
		return String.format("%d probes, slowest /actuator/health answer %.1fs, failed %s; statuses seen: lockstep %s, "
				+ "kafka %s", this.probes, this.slowestAnswer.toMillis() / 1000.0, this.failedProbes,
				this.lockstepStatuses, this.kafkaStatuses);
	}

	private void probe() {
		while (this.running) {
			long started = System.nanoTime();
			JsonNode health = this.actuator.json("/actuator/health");
			Duration took = Duration.ofNanos(System.nanoTime() - started);
			if (!this.running) {
				return;
			}
			synchronized (this) {
				this.probes++;
				if (took.compareTo(this.slowestAnswer) > 0) {
					this.slowestAnswer = took;
				}
				if (health.isMissingNode() || took.compareTo(PROBE_TIMEOUT) > 0) {
					this.failedProbes.add(String.format("at %.1fs %s after %.1fs", (started - this.startedAt) / 1e9,
							health.isMissingNode() ? "no answer" : "answered", took.toMillis() / 1000.0));
				}
				record(this.lockstepStatuses, health.path("components").path("lockstep"));
				record(this.kafkaStatuses, health.path("components").path("kafka"));
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
