package dev.lockstep.registry;

import org.apache.kafka.common.errors.SerializationException;

/**
 * Bytes that can never be decoded, however often they are retried: bad magic byte,
 * truncated or oversized frames, malformed Avro, trailing bytes, a schema id the
 * registry does not know, or a writer schema the reader cannot resolve.
 * <p>
 * Registry outages are not this exception: they surface as a plain
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
