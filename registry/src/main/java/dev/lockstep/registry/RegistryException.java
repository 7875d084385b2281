package dev.lockstep.registry;

/**
 * A schema registry request that failed, or whose successful response was invalid.
 */
public class RegistryException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final int statusCode;

	private final int errorCode;

	private final boolean retryable;

	/**
	 * Create an exception.
	 * @param message what failed
	 * @param statusCode the HTTP status, or 0 for transport, TLS, timeout and
	 * response-limit failures
	 * @param errorCode the registry's {@code error_code}, or 0
	 * @param retryable whether the same request may succeed later
	 * @param cause the underlying failure, or {@code null}
	 */
	public RegistryException(String message, int statusCode, int errorCode, boolean retryable, Throwable cause) {
		super(message, cause);
		this.statusCode = statusCode;
		this.errorCode = errorCode;
		this.retryable = retryable;
	}

	/**
	 * Return the HTTP status of the response.
	 * @return the status, or 0 when no valid response arrived
	 */
	public int statusCode() {
		return this.statusCode;
	}

	/**
	 * Return the registry's own error code from the response body.
	 * @return the {@code error_code}, or 0 when the response had none
	 */
	public int errorCode() {
		return this.errorCode;
	}

	/**
	 * Return whether retrying the same request may succeed: I/O failures and timeouts,
	 * and the statuses 408, 429 and 5xx. TLS failures, oversized responses, other
	 * statuses and invalid responses are not retryable.
	 * @return whether the failure is retryable
	 */
	public boolean isRetryable() {
		return this.retryable;
	}

	/**
	 * Return whether a status is worth retrying: 408, 429 and 5xx.
	 * @param statusCode an HTTP status
	 * @return whether a request that got it may be retried
	 */
	public static boolean isRetryableStatus(int statusCode) {
		return statusCode == 408 || statusCode == 429 || statusCode >= 500;
	}

}
