package dev.lockstep.autoconfigure.metrics;

import java.time.Duration;

import dev.lockstep.registry.RegistryListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Publishes the schema registry client's requests ({@code lockstep.registry.requests},
 * a timer by operation and outcome) and cache accesses ({@code lockstep.registry.cache},
 * a counter by cache and result).
 */
public class MicrometerRegistryListener implements RegistryListener {

	private final MeterRegistry registry;

	/**
	 * Create the listener.
	 * @param registry where meters go
	 */
	public MicrometerRegistryListener(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void clientCreated() {
		// Every meter at zero from the start, for every tag value.
		for (String operation : OPERATIONS) {
			OUTCOMES.forEach((outcome) -> requests(operation, outcome));
		}
		for (String cache : CACHES) {
			cacheAccesses(cache, true);
			cacheAccesses(cache, false);
		}
	}

	@Override
	public void request(String operation, String outcome, Duration duration) {
		requests(operation, outcome).record(duration);
	}

	@Override
	public void cacheAccess(String cache, boolean hit) {
		cacheAccesses(cache, hit).increment();
	}

	private Timer requests(String operation, String outcome) {
		return Timer.builder("lockstep.registry.requests")
			.description("Schema registry operations, retries and failover included")
			.tag("operation", operation)
			.tag("outcome", outcome)
			.register(this.registry);
	}

	private Counter cacheAccesses(String cache, boolean hit) {
		return Counter.builder("lockstep.registry.cache")
			.description("Schema registry client cache look-ups")
			.tag("cache", cache)
			.tag("result", hit ? "hit" : "miss")
			.register(this.registry);
	}

}
