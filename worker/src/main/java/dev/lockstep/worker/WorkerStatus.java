package dev.lockstep.worker;

/**
 * What a worker (or one of its slots) is doing.
 */
public enum WorkerStatus {

	/** Starting: producer initialising, consumer joining its group. */
	STARTING,

	/** Processing and committing. */
	RUNNING,

	/** Paused by an operator: the consumer stays in its group but fetches nothing. */
	PAUSED,

	/** Held at a record that cannot be processed, retrying it; nothing is committed past it. */
	BLOCKED,

	/** Stopped because another instance with the same transactional id took over. */
	FENCED,

	/** Stopped after a failure it cannot recover from (such as an idle deadline in a one-shot run). */
	FAILED,

	/** Stopped normally. */
	STOPPED,

	/**
	 * Running, but every recent transaction was aborted (a configured number in a row
	 * without a commit): nothing moves until the cause goes away. Back to RUNNING at the
	 * next commit.
	 */
	STALLED

}
