package dev.lockstep.autoconfigure;

import java.util.Collection;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.Worker;
import dev.lockstep.worker.WorkerState;
import dev.lockstep.worker.WorkerStatus;

import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

/**
 * Ties Spring Boot's availability states (and so the {@code /actuator/health/readiness}
 * and {@code /liveness} probes) to the workers: ready once every running worker is
 * {@link WorkerState#isReady() ready} (its producers initialised, its consumers in their
 * group); broken when a worker is FENCED or FAILED. Checked every second.
 */
public class WorkerAvailability implements SmartLifecycle {

	private final LockstepWorkers workers;

	private final ApplicationAvailability availability;

	private final ApplicationEventPublisher publisher;

	private ScheduledExecutorService scheduler;

	/**
	 * Create the publisher.
	 * @param workers the workers
	 * @param availability the current availability states
	 * @param publisher where availability changes are published
	 */
	public WorkerAvailability(LockstepWorkers workers, ApplicationAvailability availability,
			ApplicationEventPublisher publisher) {
		this.workers = workers;
		this.availability = availability;
		this.publisher = publisher;
	}

	/**
	 * Compare the workers with the published states and publish what changed.
	 */
	void check() {
		Collection<Worker> started = this.workers.workers().stream().filter(Worker::isStarted).toList();
		boolean broken = started.stream()
			.map(Worker::state)
			.anyMatch((state) -> state.status() == WorkerStatus.FENCED || state.status() == WorkerStatus.FAILED);
		LivenessState liveness = broken ? LivenessState.BROKEN : LivenessState.CORRECT;
		if (this.availability.getLivenessState() != liveness) {
			AvailabilityChangeEvent.publish(this.publisher, this, liveness);
		}
		ReadinessState readiness = this.workers.isReady() ? ReadinessState.ACCEPTING_TRAFFIC
				: ReadinessState.REFUSING_TRAFFIC;
		if (this.availability.getReadinessState() != readiness) {
			AvailabilityChangeEvent.publish(this.publisher, this, readiness);
		}
	}

	@Override
	public synchronized void start() {
		this.scheduler = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "lockstep-availability");
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler.scheduleWithFixedDelay(this::check, 0, 1, TimeUnit.SECONDS);
	}

	@Override
	public synchronized void stop() {
		if (this.scheduler != null) {
			this.scheduler.shutdownNow();
			this.scheduler = null;
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return this.scheduler != null;
	}

	@Override
	public int getPhase() {
		// After the workers start, before they stop.
		return LockstepWorkers.PHASE + 1;
	}

}
