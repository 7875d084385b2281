package dev.lockstep.worker;

/**
 * Thrown by a processor to reject a record that no retry can make valid. The worker's
 * invalid-input policy decides what happens: under {@code block} nothing is committed
 * past the record and the worker reports it BLOCKED; under {@code quarantine} the raw
 * record goes to the quarantine topic in the same transaction.
 * <p>
 * Any other exception from a processor is treated as a transient failure: the
 * transaction is aborted and the records are replayed after a backoff.
 */
public class InvalidRecordException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an exception that says why the record is invalid.
	 * @param message the reason, shown in health and logs
	 */
	public InvalidRecordException(String message) {
		super(message);
	}

	/**
	 * Create an exception that says why the record is invalid.
	 * @param message the reason, shown in health and logs
	 * @param cause the underlying failure
	 */
	public InvalidRecordException(String message, Throwable cause) {
		super(message, cause);
	}

}
