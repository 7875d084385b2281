package dev.lockstep.autoconfigure.health;

import dev.lockstep.worker.LockstepWorkers;

import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.application.ReadinessStateHealthIndicator;

/**
 * The readiness probe's indicator ({@code readinessState}) of an application with workers:
 * the application's readiness state once every worker is {@link LockstepWorkers#isReady()
 * ready}, refusing traffic before. Spring Boot marks an application ready once it has
 * started, before a worker's consumers have joined their group; a rolling update reading
 * that would stop the pod that works before its replacement does.
 */
public class WorkersReadinessStateHealthIndicator extends ReadinessStateHealthIndicator {

	private final LockstepWorkers workers;

	/**
	 * Create the indicator.
	 * @param availability the application's availability
	 * @param workers the workers
	 */
	public WorkersReadinessStateHealthIndicator(ApplicationAvailability availability, LockstepWorkers workers) {
		super(availability);
		this.workers = workers;
	}

	@Override
	protected AvailabilityState getState(ApplicationAvailability availability) {
		return this.workers.isReady() ? super.getState(availability) : ReadinessState.REFUSING_TRAFFIC;
	}

}
