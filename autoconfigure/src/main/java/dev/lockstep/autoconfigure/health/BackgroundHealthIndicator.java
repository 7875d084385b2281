package dev.lockstep.autoconfigure.health;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.core.log.LogAccessor;

/**
 * A health indicator whose check runs in the background, so that a health request answers
 * within a bounded time even while what it checks does not answer (a broker down, a
 * registry unreachable): a request waits at most {@code answerWithin} for the check in
 * flight, then answers with the last completed result, its details saying how long the
 * current check has waited, or UNKNOWN before any check completed. Kubernetes' default
 * probe timeout is one second; a check's own timeout may be longer.
 */
public abstract class BackgroundHealthIndicator extends AbstractHealthIndicator implements DisposableBean {

	/**
	 * How long a health request waits for the check in flight, by default: short enough
	 * that the health endpoint, which asks its contributors one after another, answers
	 * within a probe's default one-second timeout.
	 */
	public static final Duration DEFAULT_ANSWER_WITHIN = Duration.ofMillis(250);

	private static final LogAccessor logger = new LogAccessor(BackgroundHealthIndicator.class);

	private final String name;

	private final Duration answerWithin;

	private final ExecutorService executor;

	private CompletableFuture<Health> inFlight;

	private long inFlightSince;

	private volatile Health last;

	/**
	 * Create the indicator.
	 * @param name what is checked, for the check thread's name and failure messages
	 * @param answerWithin the longest a health request waits for the check in flight
	 */
	protected BackgroundHealthIndicator(String name, Duration answerWithin) {
		super(name + " health check failed");
		this.name = name;
		this.answerWithin = answerWithin;
		this.executor = Executors.newSingleThreadExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "lockstep-health-" + name);
			thread.setDaemon(true);
			return thread;
		});
	}

	/**
	 * Check health, on the background thread: may block up to the check's own timeout.
	 * @param builder the builder of the result
	 * @throws Exception a failure, reported DOWN with it
	 */
	protected abstract void check(Health.Builder builder) throws Exception;

	@Override
	protected final void doHealthCheck(Health.Builder builder) throws Exception {
		CompletableFuture<Health> check;
		long since;
		synchronized (this) {
			if (this.inFlight == null || this.inFlight.isDone()) {
				this.inFlightSince = System.nanoTime();
				this.inFlight = CompletableFuture.supplyAsync(this::runCheck, this.executor);
			}
			check = this.inFlight;
			since = this.inFlightSince;
		}
		try {
			Health health = check.get(this.answerWithin.toMillis(), TimeUnit.MILLISECONDS);
			builder.status(health.getStatus()).withDetails(health.getDetails());
		}
		catch (TimeoutException ex) {
			String waited = "no answer for " + Duration.ofNanos(System.nanoTime() - since).toMillis() + " ms";
			Health previous = this.last;
			if (previous == null) {
				builder.unknown().withDetail("check", waited + " (no check has completed yet)");
			}
			else {
				builder.status(previous.getStatus())
					.withDetails(previous.getDetails())
					.withDetail("check", waited + " (the last completed check is shown)");
			}
		}
	}

	private Health runCheck() {
		Health.Builder builder = new Health.Builder();
		try {
			check(builder);
		}
		catch (Exception ex) {
			logger.warn(ex, () -> this.name + " health check failed");
			builder.down(ex);
		}
		catch (Throwable ex) {
			builder.down(new IllegalStateException(ex));
		}
		Health health = builder.build();
		this.last = health;
		return health;
	}

	@Override
	public void destroy() {
		this.executor.shutdownNow();
	}

}
