package dev.lockstep.registry;

import java.time.Duration;
import java.util.List;

/**
 * Hears what a {@link RegistryClient} does, for metrics. Called on the caller's thread:
 * implementations must be quick and must not throw.
 */
public interface RegistryListener {

	/** A listener that hears nothing. */
	RegistryListener NONE = new RegistryListener() {
	};

	/** Every operation {@link #request} reports. */
	List<String> OPERATIONS = List.of("lookup", "register", "schema-by-id", "version", "latest-version", "reference",
			"ping");

	/** Every outcome {@link #request} reports. */
	List<String> OUTCOMES = List.of("success", "client-error", "server-error", "transport-error",
			"invalid-response");

	/** Every cache {@link #cacheAccess} reports. */
	List<String> CACHES = List.of("schemas", "ids", "references");

	/**
	 * A client was built with this listener, before its first request: the moment to
	 * register what the listener publishes, so that it exists (at zero) from the start.
	 */
	default void clientCreated() {
	}

	/**
	 * An operation that went to the registry finished (retries and failover included).
	 * @param operation lookup, register, schema-by-id, version, latest-version or ping
	 * @param outcome success, client-error (3xx, 4xx), server-error (5xx), transport-error
	 * (I/O, TLS, timeout, response limit) or invalid-response (a 2xx that could not be used)
	 * @param duration how long it took
	 */
	default void request(String operation, String outcome, Duration duration) {
	}

	/**
	 * A cache was consulted.
	 * @param cache schemas (by id) or ids (by subject and schema)
	 * @param hit whether the value was cached
	 */
	default void cacheAccess(String cache, boolean hit) {
	}

}
