package dev.lockstep.autoconfigure.endpoint;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.Worker;
import dev.lockstep.worker.WorkerState;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * {@code /actuator/lockstep}: each worker's state, assignment (committed offsets per
 * partition), lag, open transaction age and recent errors; and, when write access is
 * granted ({@code management.endpoint.lockstep.access=unrestricted}), the operator
 * actions {@code pause}, {@code resume} and {@code skip} (move past a BLOCKED worker's
 * record on purpose, to the quarantine topic when one is configured).
 */
@Endpoint(id = "lockstep", defaultAccess = Access.READ_ONLY)
public class LockstepEndpoint {

	private final LockstepWorkers workers;

	/**
	 * Create the endpoint.
	 * @param workers the workers
	 */
	public LockstepEndpoint(LockstepWorkers workers) {
		this.workers = workers;
	}

	/**
	 * Return every worker's state.
	 * @return the states by worker name
	 */
	@ReadOperation
	public Map<String, WorkerState> workers() {
		Map<String, WorkerState> states = new LinkedHashMap<>();
		this.workers.workers().forEach((worker) -> states.put(worker.settings().name(), worker.state()));
		return states;
	}

	/**
	 * Return one worker's state.
	 * @param name the worker's name
	 * @return its state, or {@code null} (404) when there is no such worker
	 */
	@ReadOperation
	public WorkerState worker(@Selector String name) {
		Worker worker = this.workers.worker(name);
		return (worker != null) ? worker.state() : null;
	}

	/**
	 * Act on a worker: {@code pause}, {@code resume} or {@code skip}.
	 * @param name the worker's name
	 * @param action the action
	 * @return what was done, or {@code null} (404) when there is no such worker
	 */
	@WriteOperation
	public Map<String, Object> act(@Selector String name, String action) {
		Worker worker = this.workers.worker(name);
		if (worker == null) {
			return null;
		}
		return switch (action.toLowerCase(Locale.ROOT)) {
			case "pause" -> {
				worker.pause();
				yield Map.of("worker", name, "action", "pause");
			}
			case "resume" -> {
				worker.resume();
				yield Map.of("worker", name, "action", "resume");
			}
			case "skip" -> Map.of("worker", name, "action", "skip", "skipping", worker.skipBlockedRecords());
			default -> throw new IllegalArgumentException("Unknown action '" + action + "': use pause, resume or skip");
		};
	}

}
