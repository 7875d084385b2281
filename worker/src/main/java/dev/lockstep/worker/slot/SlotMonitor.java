package dev.lockstep.worker.slot;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntSupplier;

import dev.lockstep.worker.SlotState;
import dev.lockstep.worker.WorkerStatus;
import org.apache.kafka.common.TopicPartition;

/**
 * The observable state of one slot, written by the slot's thread and read by anyone.
 */
public final class SlotMonitor {

	/** Errors kept per slot; the oldest is dropped first. */
	static final int MAX_RECENT_ERRORS = 64;

	private final int slot;

	private final String transactionalId;

	private final Clock clock;

	private final int stallAfter;

	// Written by the slot's thread only.
	private int consecutiveFailures;

	private final Deque<String> recentErrors = new ArrayDeque<>();

	private volatile WorkerStatus status = WorkerStatus.STARTING;

	private volatile boolean joinedGroup;

	private volatile SlotState.BlockedRecord blockedAt;

	private volatile Instant lastCommit;

	private volatile long committedRecords;

	private volatile Map<String, Long> lag = Map.of();

	private volatile Map<String, Long> committedOffsets = Map.of();

	private volatile Instant openTransactionSince;

	private IntSupplier inFlight = () -> 0;

	/**
	 * Create the monitor of one slot.
	 * @param slot the slot's index
	 * @param transactionalId the slot's transactional id
	 * @param clock the clock errors are timed by
	 * @param stallAfter the failed recovery attempts after which the slot counts as stalled
	 */
	public SlotMonitor(int slot, String transactionalId, Clock clock, int stallAfter) {
		this.slot = slot;
		this.transactionalId = transactionalId;
		this.clock = clock;
		this.stallAfter = stallAfter;
	}

	/**
	 * Set the slot's status; any status but BLOCKED forgets the blocked record.
	 * @param status the status
	 */
	public void status(WorkerStatus status) {
		this.status = status;
		if (status != WorkerStatus.BLOCKED) {
			this.blockedAt = null;
		}
	}

	/**
	 * Return the slot's status.
	 * @return the status
	 */
	public WorkerStatus status() {
		return this.status;
	}

	/**
	 * The slot blocked at a record: BLOCKED, the record kept for operators.
	 * @param record where it blocked and why
	 */
	public void blocked(SlotState.BlockedRecord record) {
		this.blockedAt = record;
		// The reason first: whoever sees the status finds why in the recent errors.
		error("BLOCKED at " + record.topic() + "-" + record.partition() + "@" + record.offset() + ": "
				+ record.reason());
		this.status = WorkerStatus.BLOCKED;
	}

	void committed(int records) {
		this.committedRecords += records;
		this.lastCommit = this.clock.instant();
		this.consecutiveFailures = 0;
		if (this.status == WorkerStatus.STALLED) {
			this.status = WorkerStatus.RUNNING;
		}
	}

	/**
	 * A transaction failed (the slot recovers from a failure and replays): after enough
	 * in a row without a commit or a quiet poll, a running slot is STALLED. A call that
	 * timed out and is repeated is no failed transaction: it counts nothing.
	 */
	void failed() {
		this.consecutiveFailures++;
		if (this.consecutiveFailures >= this.stallAfter && this.status == WorkerStatus.RUNNING) {
			error("STALLED: " + this.consecutiveFailures + " failed transactions in a row without a commit");
			this.status = WorkerStatus.STALLED;
		}
	}

	/**
	 * A poll succeeded with nothing to process and no transaction open: whatever failed
	 * has gone away.
	 */
	void quiet() {
		this.consecutiveFailures = 0;
		if (this.status == WorkerStatus.STALLED) {
			this.status = WorkerStatus.RUNNING;
		}
	}

	void lag(Map<TopicPartition, Long> lag) {
		this.lag = byName(lag);
	}

	/**
	 * The slot's consumer was given its partitions (maybe none): it has joined its group.
	 * Kept through later rebalances: readiness is decided once, at start-up.
	 */
	void joinedGroup() {
		this.joinedGroup = true;
	}

	void committedOffsets(Map<TopicPartition, Long> offsets) {
		this.committedOffsets = byName(offsets);
	}

	/**
	 * Read the slot's records in flight from here (KEY or NONE ordering; otherwise 0).
	 * @param inFlight the records in flight
	 */
	void inFlight(IntSupplier inFlight) {
		this.inFlight = inFlight;
	}

	void transactionOpen(boolean open) {
		this.openTransactionSince = open ? this.clock.instant() : null;
	}

	private static Map<String, Long> byName(Map<TopicPartition, Long> values) {
		Map<String, Long> byName = new TreeMap<>();
		values.forEach((partition, value) -> byName.put(partition.toString(), value));
		return Collections.unmodifiableMap(byName);
	}

	/**
	 * Return the record the slot is blocked at.
	 * @return the record, or {@code null} when not blocked
	 */
	public SlotState.BlockedRecord blockedAt() {
		return this.blockedAt;
	}

	long committedRecords() {
		return this.committedRecords;
	}

	/**
	 * Keep an error among the slot's recent ones, with the time it happened.
	 * @param description what happened
	 */
	public void error(String description) {
		String entry = this.clock.instant() + " " + description;
		synchronized (this.recentErrors) {
			if (this.recentErrors.size() == MAX_RECENT_ERRORS) {
				this.recentErrors.removeFirst();
			}
			this.recentErrors.addLast(entry);
		}
	}

	/**
	 * Return the slot's state as it is now.
	 * @return the state
	 */
	public SlotState snapshot() {
		List<String> errors;
		synchronized (this.recentErrors) {
			errors = List.copyOf(this.recentErrors);
		}
		return new SlotState(this.slot, this.transactionalId, this.status, this.joinedGroup, this.blockedAt,
				this.lastCommit,
				this.committedRecords, this.committedOffsets, this.openTransactionSince, this.lag,
				this.inFlight.getAsInt(), errors);
	}

}
