package dev.lockstep.worker;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.context.SmartLifecycle;

/**
 * The application's workers as one Spring lifecycle: they start after the context is
 * ready and stop first, each committing or aborting its open transaction and leaving its
 * group.
 */
public class LockstepWorkers implements SmartLifecycle {

	/** The phase of worker lifecycles: late to start, early to stop (as spring-kafka containers). */
	public static final int PHASE = Integer.MAX_VALUE - 100;

	private final Map<String, Worker> workers = new LinkedHashMap<>();

	private final Set<String> autoStartup;

	private volatile boolean running;

	/**
	 * Create the lifecycle.
	 * @param workers the workers, by name
	 * @param autoStartup the names of the workers that start with the context
	 */
	public LockstepWorkers(Map<String, Worker> workers, Set<String> autoStartup) {
		this.workers.putAll(workers);
		this.autoStartup = Set.copyOf(autoStartup);
	}

	/**
	 * Return a worker by name.
	 * @param name the worker's name
	 * @return the worker, or {@code null}
	 */
	public Worker worker(String name) {
		return this.workers.get(name);
	}

	/**
	 * Return every worker.
	 * @return the workers, in configuration order
	 */
	public Collection<Worker> workers() {
		return this.workers.values();
	}

	/**
	 * Whether the workers are ready for work: every started worker running and
	 * {@link WorkerState#isReady() ready}.
	 * @return whether every started worker is ready
	 */
	public boolean isReady() {
		return this.workers.values()
			.stream()
			.filter(Worker::isStarted)
			.allMatch((worker) -> worker.isRunning() && worker.state().isReady());
	}

	/**
	 * Start the workers that start with the context: first every one reads its cluster's
	 * features, then, when none refused its configuration, every one starts its slots.
	 * @throws MissingClusterFeatureException when a worker's cluster cannot serve its
	 * configuration (no worker started)
	 */
	@Override
	public void start() {
		List<Worker> starting = this.workers.entrySet()
			.stream()
			.filter((entry) -> this.autoStartup.contains(entry.getKey()))
			.map(Map.Entry::getValue)
			.toList();
		starting.forEach(Worker::checkCluster);
		starting.forEach(Worker::startSlots);
		this.running = true;
	}

	@Override
	public void stop() {
		this.workers.values().forEach(Worker::stop);
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
