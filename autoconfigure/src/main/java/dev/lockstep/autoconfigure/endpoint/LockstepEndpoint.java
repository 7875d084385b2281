package dev.lockstep.autoconfigure.endpoint;

import java.security.Principal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.lockstep.worker.FailureCategory;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.OffsetReset;
import dev.lockstep.worker.Redrive;
import dev.lockstep.worker.RedriveResult;
import dev.lockstep.worker.Worker;
import dev.lockstep.worker.WorkerState;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * {@code /actuator/lockstep}: each worker's state, assignment (committed offsets per
 * partition), lag, open transaction age and recent errors; and, when write access is
 * granted ({@code management.endpoint.lockstep.access=unrestricted}), the operator
 * actions {@code pause}, {@code resume}, {@code skip} (move past a BLOCKED worker's
 * record on purpose, to the quarantine topic when one is configured), {@code reset} (move
 * a running worker's input) and {@code redrive} (send quarantined records back).
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
	 * Act on a worker: {@code pause}, {@code resume}, {@code skip}, {@code reset} its
	 * input's offsets while it runs ({@link Worker#resetOffsets}), or {@code redrive} its
	 * quarantined records ({@link Worker#redrive}, answered once done).
	 * @param name the worker's name
	 * @param action the action
	 * @param to for {@code reset}: {@code end}, a time (ISO-8601, such as
	 * {@code 2026-12-06T09:00:00Z}) or an offset
	 * @param partitions for {@code reset}: {@code topic:partition} pairs separated by
	 * commas; every partition of the worker when absent
	 * @param from for {@code redrive}: read the quarantine topic from this time (ISO-8601)
	 * instead of where the last redrive stopped
	 * @param categories for {@code redrive}: the failure categories sent back, separated
	 * by commas ({@code invalid_input}, {@code abortable}); every one when absent
	 * @param since for {@code redrive}: quarantined at or after this time
	 * @param until for {@code redrive}: quarantined before this time
	 * @param key for {@code redrive}: only records with this key
	 * @param maxRedrives for {@code redrive}: how often a record may be sent back (3 when absent)
	 * @param securityContext who asks, named in the log
	 * @return what was done, or {@code null} (404) when there is no such worker
	 */
	@WriteOperation
	public Map<String, Object> act(@Selector String name, String action, @Nullable String to,
			@Nullable String partitions, @Nullable String from, @Nullable String categories, @Nullable String since,
			@Nullable String until, @Nullable String key, @Nullable Integer maxRedrives,
			SecurityContext securityContext) {
		Worker worker = this.workers.worker(name);
		if (worker == null) {
			return null;
		}
		Principal principal = securityContext.getPrincipal();
		String requestedBy = (principal != null) ? principal.getName() : "an anonymous actuator request";
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
			case "reset" -> {
				OffsetReset reset;
				try {
					reset = offsetReset(to, partitions);
				}
				catch (IllegalArgumentException ex) {
					throw new InvalidEndpointRequestException(ex.getMessage(), ex.getMessage());
				}
				reset = reset.requestedBy(requestedBy);
				worker.resetOffsets(reset);
				yield Map.of("worker", name, "action", "reset", "to", to, "partitions",
						reset.partitions().stream().map(TopicPartition::toString).sorted().toList(), "requestedBy",
						reset.requestedBy());
			}
			case "redrive" -> {
				Redrive redrive;
				try {
					redrive = redrive(from, categories, since, until, key, maxRedrives, requestedBy);
				}
				catch (IllegalArgumentException ex) {
					throw new InvalidEndpointRequestException(ex.getMessage(), ex.getMessage());
				}
				String quarantine = worker.settings().invalidInput().quarantineTopic();
				if (quarantine == null || quarantine.isBlank()) {
					throw new InvalidEndpointRequestException("Worker '" + name + "' has no quarantine topic",
							"Worker '" + name + "' has no quarantine topic");
				}
				RedriveResult result = worker.redrive(redrive);
				yield Map.of("worker", name, "action", "redrive", "redriven", result.redriven(), "redrivenTo",
						result.redrivenTo(), "keptByLoopGuard", result.keptByLoopGuard(), "notSelected",
						result.notSelected(), "unroutable", result.unroutable(), "requestedBy", requestedBy);
			}
			default -> throw new IllegalArgumentException(
					"Unknown action '" + action + "': use pause, resume, skip, reset or redrive");
		};
	}

	/**
	 * Read a redrive request as the endpoint takes it.
	 * @return the request
	 * @throws IllegalArgumentException for a value it cannot read
	 */
	static Redrive redrive(@Nullable String from, @Nullable String categories, @Nullable String since,
			@Nullable String until, @Nullable String key, @Nullable Integer maxRedrives, String requestedBy) {
		Set<FailureCategory> selected = new HashSet<>();
		if (categories != null && !categories.isBlank()) {
			for (String category : categories.split(",")) {
				try {
					selected.add(FailureCategory.valueOf(category.strip().toUpperCase(Locale.ROOT)));
				}
				catch (IllegalArgumentException ex) {
					throw new IllegalArgumentException("Category '" + category.strip()
							+ "': use invalid_input or abortable (a spent retry budget)");
				}
			}
		}
		return new Redrive(time("from", from), selected, time("since", since), time("until", until),
				(key != null && !key.isEmpty()) ? key : null,
				(maxRedrives != null) ? maxRedrives : Redrive.DEFAULT_MAX_REDRIVES, requestedBy);
	}

	private static @Nullable Instant time(String name, @Nullable String value) {
		if (value == null || value.isBlank()) {
			return null;
		}
		try {
			return Instant.parse(value.strip());
		}
		catch (DateTimeParseException ex) {
			throw new IllegalArgumentException(
					"'" + name + "' is " + value + ": use a time such as 2026-12-06T09:00:00Z");
		}
	}

	/**
	 * Read a reset's target and partitions as the endpoint takes them.
	 * @param to {@code end}, an ISO-8601 time or an offset
	 * @param partitions {@code topic:partition} pairs separated by commas, or {@code null}
	 * @return the reset
	 * @throws IllegalArgumentException for a value it cannot read
	 */
	static OffsetReset offsetReset(@Nullable String to, @Nullable String partitions) {
		if (to == null || to.isBlank()) {
			throw new IllegalArgumentException("reset needs 'to': end, a time such as 2026-12-06T09:00:00Z, or an offset");
		}
		OffsetReset reset;
		if (to.equalsIgnoreCase("end")) {
			reset = OffsetReset.toEnd();
		}
		else if (to.chars().allMatch(Character::isDigit)) {
			reset = OffsetReset.toOffset(Long.parseLong(to));
		}
		else {
			try {
				reset = OffsetReset.toTimestamp(Instant.parse(to));
			}
			catch (DateTimeParseException ex) {
				throw new IllegalArgumentException("'to' is " + to + ": use end, a time such as "
						+ "2026-12-06T09:00:00Z, or an offset");
			}
		}
		if (partitions == null || partitions.isBlank()) {
			return reset;
		}
		List<TopicPartition> named = new ArrayList<>();
		for (String pair : partitions.split(",")) {
			int colon = pair.lastIndexOf(':');
			if (colon <= 0 || colon == pair.length() - 1 || !pair.substring(colon + 1).strip().chars()
				.allMatch(Character::isDigit)) {
				throw new IllegalArgumentException("Partition '" + pair + "': use topic:partition, such as orders:0");
			}
			named.add(new TopicPartition(pair.substring(0, colon).strip(),
					Integer.parseInt(pair.substring(colon + 1).strip())));
		}
		return reset.forPartitions(named);
	}

}
