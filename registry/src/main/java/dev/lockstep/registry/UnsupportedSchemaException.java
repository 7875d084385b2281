package dev.lockstep.registry;

/**
 * The registry answered with a schema Lockstep cannot use, however often it is asked
 * again: one with references, one over {@link RegistryClient#MAX_SCHEMA_BYTES}, one of an
 * unknown type or of another type than the caller reads, or one that does not parse. A
 * decoder treats a message written with it as invalid data.
 */
public class UnsupportedSchemaException extends RegistryException {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an exception.
	 * @param message what is wrong with the schema
	 * @param cause the underlying failure, or {@code null}
	 */
	public UnsupportedSchemaException(String message, Throwable cause) {
		super(message, 200, 0, false, cause);
	}

}
