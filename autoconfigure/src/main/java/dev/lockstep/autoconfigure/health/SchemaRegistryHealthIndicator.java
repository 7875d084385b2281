package dev.lockstep.autoconfigure.health;

import dev.lockstep.registry.RegistryClient;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Schema registry health: the registry answers {@code GET /config}. Credentials never
 * appear in the details.
 */
public class SchemaRegistryHealthIndicator extends AbstractHealthIndicator {

	private final RegistryClient client;

	/**
	 * Create the indicator.
	 * @param client the registry client
	 */
	public SchemaRegistryHealthIndicator(RegistryClient client) {
		super("Schema registry health check failed");
		this.client = client;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		builder.up().withDetail("compatibilityLevel", this.client.ping());
	}

}
