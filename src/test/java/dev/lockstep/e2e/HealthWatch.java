package dev.lockstep.e2e;

import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A probe's view of a running worker, every 500 ms: how long {@code /actuator/health}
 * took to answer, and every status the {@code lockstep} health component reported.
 */
final class HealthWatch implements AutoCloseable {

	private static final Duration PROBE_EVERY = Duration.ofMillis(500);

	private final Actuator actuator;

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final Thread prober;

	private final Set<String> lockstepStatuses = new TreeSet<>();

	private volatile Duration slowestAnswer = Duration.ZERO;

	HealthWatch(Actuator actuator) {
		this.actuator = actuator;
		this.prober = new Thread(this::probe, "health-watch");
		this.prober.setDaemon(true);
		this.prober.start();
	}

	/** Every status the lockstep component reported while the worker answered. */
	synchronized Set<String> lockstepStatuses() {
		return Set.copyOf(this.lockstepStatuses);
	}

	/** The slowest answer of {@code /actuator/health} seen. */
	Duration slowestAnswer() {
		return this.slowestAnswer;
	}

	private void probe() {
		while (this.running.get()) {
			long started = System.nanoTime();
			int code = this.actuator.statusCode("/actuator/health");
			Duration answer = Duration.ofNanos(System.nanoTime() - started);
			if (code != 0) {
				if (answer.compareTo(this.slowestAnswer) > 0) {
					this.slowestAnswer = answer;
				}
				String lockstep = this.actuator.json("/actuator/health/lockstep").path("status").asText("");
				if (!lockstep.isEmpty()) {
					synchronized (this) {
						this.lockstepStatuses.add(lockstep);
					}
				}
			}
			try {
				Thread.sleep(PROBE_EVERY);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.running.set(false);
		this.prober.join(15_000);
	}

}
