package dev.lockstep.worker;

import java.util.List;

/**
 * A snapshot of a worker's state: the most urgent status of its slots, and each slot's.
 *
 * @param name the worker's name
 * @param instance the identity of the instance it runs in, part of each slot's transactional id
 * @param cluster the features of its cluster, read when it started
 * @param status FENCED, FAILED, BLOCKED, STALLED or PAUSED when any slot is; STARTING while any slot
 * starts; STOPPED when all slots stopped; otherwise RUNNING
 * @param slots each slot's state
 */
public record WorkerState(String name, InstanceIdentity instance, ClusterFeatures cluster, WorkerStatus status,
		List<SlotState> slots) {

	static WorkerStatus summarize(List<SlotState> slots) {
		for (WorkerStatus urgent : List.of(WorkerStatus.FENCED, WorkerStatus.FAILED, WorkerStatus.BLOCKED,
				WorkerStatus.STALLED, WorkerStatus.PAUSED, WorkerStatus.STARTING)) {
			if (slots.stream().anyMatch((slot) -> slot.status() == urgent)) {
				return urgent;
			}
		}
		return slots.stream().allMatch((slot) -> slot.status() == WorkerStatus.STOPPED) ? WorkerStatus.STOPPED
				: WorkerStatus.RUNNING;
	}

	/**
	 * Whether the worker is ready for work: every slot's producer initialised and every
	 * slot's consumer a member of its group. A slot without partitions (more members than
	 * partitions) is ready too: it is where partitions go when another member leaves.
	 * @return whether every slot is past its start and has joined the group
	 */
	public boolean isReady() {
		return !this.slots.isEmpty() && this.slots.stream()
			.allMatch((slot) -> slot.status() != WorkerStatus.STARTING && slot.joinedGroup());
	}

	/**
	 * Return how many input records the worker's slots committed in all.
	 * @return the committed input records
	 */
	public long committedRecords() {
		return this.slots.stream().mapToLong(SlotState::committedRecords).sum();
	}

}
