package dev.lockstep.worker;

import java.util.List;

/**
 * A snapshot of a worker's state: the most urgent status of its slots, and each slot's.
 *
 * @param name the worker's name
 * @param status FENCED, FAILED, BLOCKED, STALLED or PAUSED when any slot is; STARTING while any slot
 * starts; STOPPED when all slots stopped; otherwise RUNNING
 * @param slots each slot's state
 */
public record WorkerState(String name, WorkerStatus status, List<SlotState> slots) {

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
	 * Return how many input records the worker's slots committed in all.
	 * @return the committed input records
	 */
	public long committedRecords() {
		return this.slots.stream().mapToLong(SlotState::committedRecords).sum();
	}

}
