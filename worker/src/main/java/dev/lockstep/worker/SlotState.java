package dev.lockstep.worker;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A snapshot of one slot's state.
 *
 * @param slot the slot index
 * @param transactionalId the slot's transactional id
 * @param status what the slot is doing
 * @param joinedGroup whether the slot has joined its group since it started (been given its
 * partitions, none among them when the group has more members than partitions); it stays
 * so through later rebalances and consumer replacements, so that readiness does not flap
 * @param blockedAt the record the slot is held at when BLOCKED, otherwise {@code null}
 * @param lastCommit when the slot last committed a transaction, or {@code null}
 * @param committedRecords how many input records the slot has committed
 * @param committedOffsets where each assigned partition ({@code topic-partition}) resumes
 * after a rewind: its last committed offset, or where the slot began reading it
 * @param openTransactionSince when the open transaction began, or {@code null} when none is open
 * @param lag records behind the end of each assigned partition ({@code topic-partition}),
 * as of the last poll that returned records
 * @param inFlight records being processed, or done and waiting for earlier ones of their
 * partition (ordering KEY or NONE; always 0 under PARTITION)
 * @param recentErrors the most recent errors, oldest first (at most 64)
 */
public record SlotState(int slot, String transactionalId, WorkerStatus status, boolean joinedGroup,
		BlockedRecord blockedAt,
		Instant lastCommit, long committedRecords, Map<String, Long> committedOffsets, Instant openTransactionSince,
		Map<String, Long> lag, int inFlight, List<String> recentErrors) {

	/**
	 * The coordinates of a record a slot is blocked at, and why.
	 *
	 * @param topic the topic
	 * @param partition the partition
	 * @param offset the offset
	 * @param reason why it cannot be processed
	 */
	public record BlockedRecord(String topic, int partition, long offset, String reason) {

	}

}
