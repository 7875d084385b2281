package dev.lockstep.worker;

/**
 * Maps a failure on a worker's transactional path to what the worker does about it, so
 * that the slot loop stays a loop. {@link DefaultRecoveryPolicy} follows kafka-clients'
 * exception classes; replace it to treat application exceptions differently.
 */
@FunctionalInterface
public interface RecoveryPolicy {

	/**
	 * Decide how to recover from a failure.
	 * @param failure the failure (never an {@link InvalidRecordException}: invalid input
	 * is the invalid-input policy's business)
	 * @return the recovery
	 */
	Recovery classify(Throwable failure);

	/**
	 * The recoveries a worker knows.
	 */
	enum Recovery {

		/** Retry the same operation after a backoff (a timed-out commit is retried, not replaced). */
		RETRY,

		/** Abort the transaction, rewind the consumer to the committed offsets, replay after a backoff. */
		ABORT,

		/** Close the producer, rewind, and continue with a new producer of the same transactional id. */
		REPLACE_PRODUCER,

		/** Another instance with the same transactional id took over: stop this slot and say so. */
		FENCED

	}

}
