package dev.lockstep.worker;

/**
 * What a failure on a worker's path means, after the error classes of Kafka's own
 * transactional clients (KIP-1050). Each category has exactly one recovery.
 */
public enum FailureCategory {

	/**
	 * The same call may succeed if repeated: a timed-out transaction call (sending offsets,
	 * committing, aborting) is repeated after a back-off; anywhere else (a poll, a send) the
	 * transaction is aborted and replayed as for {@link #ABORTABLE}.
	 */
	RETRIABLE,

	/** The transaction cannot complete: abort it, rewind to the committed offsets, back off, replay. */
	ABORTABLE,

	/** The record can never be processed: the worker's invalid-input policy decides (block or quarantine). */
	INVALID_INPUT,

	/**
	 * The transactional id was fenced: re-initialise the producer, rewind and replay,
	 * unless the cluster shows that another live instance holds the id (its group member
	 * took this slot's static member id, or another producer took the id back after the
	 * slot had re-initialised from a fence nothing explained): then stop.
	 */
	FENCED,

	/** The producer is unusable: close it, rewind, and continue with a new producer of the same transactional id. */
	FATAL,

	/**
	 * The group refused the slot's consumer: its static member's {@code group.instance.id}
	 * is still held by an earlier member that has neither left nor timed out (an instance
	 * that crashed, under the consumer group protocol). Abort, close the consumer, back off,
	 * and join again with a new one.
	 */
	REJOIN

}
