package dev.lockstep.registry.server;

/**
 * A subject's compatibility level, as the Confluent registry names them: which earlier
 * versions a new schema is checked against, and in which direction.
 */
public enum Compatibility {

	/** No check. */
	NONE,

	/** The new schema reads data of the latest version. */
	BACKWARD,

	/** The new schema reads data of every version. */
	BACKWARD_TRANSITIVE,

	/** The latest version reads data of the new schema. */
	FORWARD,

	/** Every version reads data of the new schema. */
	FORWARD_TRANSITIVE,

	/** Both {@link #BACKWARD} and {@link #FORWARD}. */
	FULL,

	/** Both {@link #BACKWARD_TRANSITIVE} and {@link #FORWARD_TRANSITIVE}. */
	FULL_TRANSITIVE;

	boolean transitive() {
		return name().endsWith("_TRANSITIVE");
	}

	boolean backward() {
		return this != NONE && !name().startsWith("FORWARD");
	}

	boolean forward() {
		return this != NONE && !name().startsWith("BACKWARD");
	}

}
