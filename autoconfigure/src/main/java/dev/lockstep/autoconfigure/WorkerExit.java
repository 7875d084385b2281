package dev.lockstep.autoconfigure;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.Worker;
import dev.lockstep.worker.WorkerState;
import dev.lockstep.worker.WorkerStatus;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.log.LogAccessor;

/**
 * Ends a worker service whose workers have all ended with an exit code that says how:
 * {@value #COMPLETED} when every worker stopped (a one-shot run whose budget completed),
 * {@value #FAILED} when one FAILED, {@value #FENCED} when one was FENCED and none failed.
 * Only when nothing else keeps the process up (the starting thread has returned, as a
 * service's {@code main} does, and no web server or other non-daemon thread runs): the
 * JVM would otherwise end by itself, with code 0 whatever happened, so a Kubernetes Job
 * or a {@code Restart=on-failure} unit would take a failed run for a success. A process
 * kept up (by a web server) stays up and reports DOWN. Checked every second.
 */
public class WorkerExit implements SmartLifecycle {

	/** Every worker stopped normally (a one-shot run completed). */
	public static final int COMPLETED = 0;

	/** A worker FAILED (a failure retrying cannot change, a one-shot run's input deadline). */
	public static final int FAILED = 1;

	/** A worker was FENCED (another live instance holds its transactional ids), none FAILED. */
	public static final int FENCED = 3;

	private static final LogAccessor logger = new LogAccessor(WorkerExit.class);

	private final LockstepWorkers workers;

	private final ConfigurableApplicationContext context;

	private ScheduledExecutorService scheduler;

	/**
	 * Create the lifecycle.
	 * @param workers the workers
	 * @param context the application context, closed before the process exits
	 */
	public WorkerExit(LockstepWorkers workers, ConfigurableApplicationContext context) {
		this.workers = workers;
		this.context = context;
	}

	/**
	 * Return the exit code for workers that have all ended.
	 * @param states the workers' states
	 * @return {@link #FAILED}, {@link #FENCED} or {@link #COMPLETED}
	 */
	public static int exitCode(Collection<WorkerState> states) {
		if (states.stream().anyMatch((state) -> hasSlot(state, WorkerStatus.FAILED))) {
			return FAILED;
		}
		if (states.stream().anyMatch((state) -> hasSlot(state, WorkerStatus.FENCED))) {
			return FENCED;
		}
		return COMPLETED;
	}

	private static boolean hasSlot(WorkerState state, WorkerStatus status) {
		return state.status() == status || state.slots().stream().anyMatch((slot) -> slot.status() == status);
	}

	void check() {
		List<Worker> started = this.workers.workers().stream().filter(Worker::isStarted).toList();
		if (started.isEmpty()) {
			if (!isKeptUp()) {
				// No worker to wait for: let the process end as it would without this check.
				stop();
			}
			return;
		}
		if (started.stream().anyMatch(Worker::isRunning) || !this.context.isActive() || isKeptUp()) {
			return;
		}
		List<WorkerState> states = started.stream().map(Worker::state).toList();
		int code = exitCode(states);
		String message = "Every worker has ended (" + states.stream()
			.map((state) -> state.name() + " " + state.status())
			.toList() + "): exiting with code " + code;
		if (code == COMPLETED) {
			logger.info(message);
		}
		else {
			logger.error(message);
		}
		System.exit(SpringApplication.exit(this.context, () -> code));
	}

	// Whether a thread other than this one would keep the JVM running.
	private static boolean isKeptUp() {
		Thread current = Thread.currentThread();
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.anyMatch((thread) -> thread != current && thread.isAlive() && !thread.isDaemon()
					&& !thread.getName().equals("DestroyJavaVM"));
	}

	@Override
	public synchronized void start() {
		this.scheduler = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			// Not a daemon: once the last slot thread has ended, this thread keeps the JVM
			// up until it has decided the exit code (a JVM ending by itself says 0).
			Thread thread = new Thread(runnable, "lockstep-exit");
			thread.setDaemon(false);
			return thread;
		});
		this.scheduler.scheduleWithFixedDelay(this::check, 1, 1, TimeUnit.SECONDS);
	}

	@Override
	public synchronized void stop() {
		if (this.scheduler != null) {
			this.scheduler.shutdown();
			this.scheduler = null;
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return this.scheduler != null;
	}

	@Override
	public int getPhase() {
		// After the workers start, before they stop: a graceful shutdown's stopped workers
		// are no reason to exit.
		return LockstepWorkers.PHASE + 1;
	}

}
