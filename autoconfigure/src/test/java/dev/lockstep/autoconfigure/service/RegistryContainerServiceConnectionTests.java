package dev.lockstep.autoconfigure.service;

import dev.lockstep.autoconfigure.LockstepRegistryAutoConfiguration;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistrySchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A registry container as a {@code @ServiceConnection}: the application's registry client
 * talks to it with no {@code lockstep.registry.url}. Needs Docker; without it the test is
 * reported as skipped (the factories' logic is tested without Docker in
 * {@link RegistryServiceConnectionTests}).
 */
@SpringBootTest
@EnabledIf(value = "dockerAvailable", disabledReason = "SKIPPED: no Docker engine; RegistryServiceConnectionTests "
		+ "covered the connection details without one")
class RegistryContainerServiceConnectionTests {

	@ServiceConnection
	static final GenericContainer<?> registry = new GenericContainer<>("apicurio/apicurio-registry:3.0.0")
		.withExposedPorts(8080);

	@Autowired
	private RegistryClient client;

	static boolean dockerAvailable() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	@Test
	void theRegistryClientReachesTheContainer() {
		long id = this.client.register("orders-value", RegistrySchema.json("{\"type\": \"object\"}"));
		assertThat(this.client.schema(id).type()).isEqualTo(RegistrySchema.JSON);
	}

	@SpringBootConfiguration
	@ImportAutoConfiguration(LockstepRegistryAutoConfiguration.class)
	static class App {

	}

}
