package dev.lockstep.worker;

/**
 * What a failure on a worker's path means, after the error classes of Kafka's own
 * transactional clients (KIP-1050). Each category has exactly one recovery.
 */
public enum FailureCategory {

	/** The same call may succeed if repeated (a timed-out commit): repeat it after a back-off. */
	RETRIABLE,

	/** The transaction cannot complete: abort it, rewind to the committed offsets, back off, replay. */
	ABORTABLE,

	/** The record can never be processed: the worker's invalid-input policy decides (block or quarantine). */
	INVALID_INPUT,

	/** The transactional id was fenced: stop, unless the fence is the coordinator's abort of a timed-out transaction. */
	FENCED,

	/** The producer is unusable: close it, rewind, and continue with a new producer of the same transactional id. */
	FATAL

}
