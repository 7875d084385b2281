package dev.lockstep.worker.slot;

import dev.lockstep.worker.WorkerStatus;

/**
 * Ends a slot with a status other than STOPPED (FENCED, FAILED).
 */
final class SlotFailure extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient WorkerStatus status;

	SlotFailure(WorkerStatus status, String message) {
		super(message);
		this.status = status;
	}

	WorkerStatus status() {
		return this.status;
	}

}
