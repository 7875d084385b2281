package dev.lockstep.worker.slot;

import dev.lockstep.worker.WorkerSettings;

/**
 * Who a slot is: its worker, its index and its transactional id. Its string form is the
 * prefix of every log line about the slot.
 *
 * @param worker the worker's name
 * @param index the slot index, from 0
 * @param transactionalId the slot's transactional id
 */
public record SlotId(String worker, int index, String transactionalId) {

	/**
	 * The slot of a worker at an index, named by its transactional id.
	 * @param settings the worker's settings
	 * @param index the slot's index
	 * @return the slot's id
	 */
	public static SlotId of(WorkerSettings settings, int index) {
		return new SlotId(settings.name(), index, settings.transactionalId(index));
	}

	@Override
	public String toString() {
		return "Worker " + this.worker + " slot " + this.index;
	}

}
