package dev.lockstep.autoconfigure.health;

import dev.lockstep.registry.RegistryClient;

import org.springframework.boot.health.contributor.Health;

/**
 * Schema registry health: the registry answers {@code GET /config}. Credentials never
 * appear in the details. Checked in the background: a health request answers within a
 * bounded time with the registry unreachable.
 */
public class SchemaRegistryHealthIndicator extends BackgroundHealthIndicator {

	private final RegistryClient client;

	/**
	 * Create the indicator.
	 * @param client the registry client
	 */
	public SchemaRegistryHealthIndicator(RegistryClient client) {
		super("Schema registry", DEFAULT_ANSWER_WITHIN);
		this.client = client;
	}

	@Override
	protected void check(Health.Builder builder) {
		builder.up().withDetail("compatibilityLevel", this.client.ping());
	}

}
