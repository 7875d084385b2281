package dev.lockstep.registry;

import org.apache.kafka.common.errors.SerializationException;

/**
 * Data that can never be decoded or encoded, however often it is retried: bad magic
 * byte, truncated or oversized frames, malformed Avro, trailing bytes, a schema id the
 * registry answers is unknown (error code 40403), a writer schema the reader cannot
 * resolve; on the way out, a value its schema cannot encode or a message over the limit.
 * <p>
 * Registry outages are not this exception: an unreachable registry, a timeout, a 5xx or
 * a 404 without the registry's own error code surface as a plain
 * {@link SerializationException} caused by a {@link RegistryException}, so that a worker
 * retries them instead of treating good records as invalid.
 */
public class InvalidDataException extends SerializationException {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an exception with a message that says what is wrong with the bytes.
	 * @param message the message
	 */
	public InvalidDataException(String message) {
		super(message);
	}

	/**
	 * Create an exception with a message and the underlying failure.
	 * @param message the message
	 * @param cause the cause
	 */
	public InvalidDataException(String message, Throwable cause) {
		super(message, cause);
	}

}
