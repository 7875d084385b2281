package dev.lockstep.autoconfigure.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.Worker;
import dev.lockstep.worker.WorkerState;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * Worker health ({@code lockstep}): UP when every worker is RUNNING; {@link #RECOVERING}
 * when one is STALLED (its transactions keep aborting; the details say why), a status
 * that probes read as up; DOWN when any is BLOCKED, FENCED or FAILED, which only evidence
 * decides; UNKNOWN while one starts; OUT_OF_SERVICE when one is paused by an operator or
 * all stopped.
 * Details give each worker's slots: status, blocked record, last commit, committed
 * records, lag and recent errors.
 */
public class LockstepWorkersHealthIndicator extends AbstractHealthIndicator {

	/**
	 * A worker is recovering from failures (STALLED): not in Spring Boot's default status
	 * order, so the aggregate health ignores it and HTTP answers 200, while monitoring sees
	 * the component's own status and details.
	 */
	public static final Status RECOVERING = new Status("RECOVERING",
			"Transactions keep aborting; the worker is recovering");

	private final LockstepWorkers workers;

	/**
	 * Create the indicator.
	 * @param workers the workers
	 */
	public LockstepWorkersHealthIndicator(LockstepWorkers workers) {
		super("Lockstep worker health check failed");
		this.workers = workers;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		Status status = Status.UP;
		Map<String, Object> details = new LinkedHashMap<>();
		for (Worker worker : this.workers.workers()) {
			WorkerState state = worker.state();
			details.put(state.name(), state);
			status = worse(status, statusOf(state));
		}
		if (details.isEmpty()) {
			builder.up().withDetail("workers", "none configured");
			return;
		}
		builder.status(status).withDetails(details);
	}

	private static Status statusOf(WorkerState state) {
		return switch (state.status()) {
			case RUNNING -> Status.UP;
			case STALLED -> RECOVERING;
			case STARTING -> Status.UNKNOWN;
			case STOPPED, PAUSED -> Status.OUT_OF_SERVICE;
			case BLOCKED, FENCED, FAILED -> Status.DOWN;
		};
	}

	private static Status worse(Status current, Status candidate) {
		List<Status> order = List.of(Status.DOWN, Status.OUT_OF_SERVICE, Status.UNKNOWN, RECOVERING, Status.UP);
		return (order.indexOf(candidate) < order.indexOf(current)) ? candidate : current;
	}

}
