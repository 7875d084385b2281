package dev.lockstep.worker.observation;

import io.micrometer.observation.Observation;

/**
 * The context of a {@code lockstep.worker.transaction} observation: one transaction of
 * a worker slot, from its first record until it committed or was aborted. The spans of
 * its sampled records carry the same transactional id and sequence number.
 */
public class TransactionObservationContext extends Observation.Context {

	/**
	 * How a transaction ended.
	 */
	public enum Result {

		/** Committed with its input offsets. */
		COMMITTED,

		/** Aborted (or given up with its producer): its records are replayed. */
		ABORTED,

		/**
		 * Given up after its commit was called and failed: it may have committed (a
		 * successor producer completes a pending commit), so its records are replayed only
		 * when the group's committed offsets say it did not.
		 */
		UNKNOWN

	}

	private final String worker;

	private final String transactionalId;

	private final long sequence;

	private int records;

	private Result result;

	/**
	 * Create the context of one transaction.
	 * @param worker the worker's name
	 * @param transactionalId the slot's transactional id
	 * @param sequence the transaction's sequence number for that transactional id, from 1
	 */
	public TransactionObservationContext(String worker, String transactionalId, long sequence) {
		this.worker = worker;
		this.transactionalId = transactionalId;
		this.sequence = sequence;
	}

	public String getWorker() {
		return this.worker;
	}

	public String getTransactionalId() {
		return this.transactionalId;
	}

	public long getSequence() {
		return this.sequence;
	}

	/**
	 * Return the input records the transaction held when it ended.
	 * @return the record count
	 */
	public int getRecords() {
		return this.records;
	}

	/**
	 * Return how the transaction ended.
	 * @return the result, or {@code null} while it is open
	 */
	public Result getResult() {
		return this.result;
	}

	void ended(Result result, int records) {
		this.result = result;
		this.records = records;
	}

}
