package dev.lockstep.autoconfigure.dev;

import java.nio.file.Path;
import java.util.List;

import dev.lockstep.autoconfigure.LockstepRegistryAutoConfiguration;
import dev.lockstep.autoconfigure.SchemaRegistryConnectionDetails;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.server.EmbeddedSchemaRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The development registry: started only when enabled and no registry is configured,
 * published as the registry connection details, its schemas kept in its directory.
 */
class LockstepDevRegistryAutoConfigurationTests {

	private static final RegistrySchema SCHEMA = RegistrySchema.json("{\"type\": \"string\"}");

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(LockstepDevRegistryAutoConfiguration.class, LockstepRegistryAutoConfiguration.class));

	@Test
	void startsTheDevelopmentRegistryForTheRegistryClientAndKeepsItsSchemas(@TempDir Path data) {
		ApplicationContextRunner enabled = this.runner.withPropertyValues("lockstep.dev.embedded-registry.enabled=true",
				"lockstep.dev.embedded-registry.data-dir=" + data);
		long[] id = new long[1];
		enabled.run((context) -> {
			EmbeddedSchemaRegistry registry = context.getBean(EmbeddedSchemaRegistry.class);
			assertThat(context.getBean(SchemaRegistryConnectionDetails.class).getUrls()).containsExactly(registry.url());
			assertThat(registry.url()).startsWith("http://127.0.0.1:");
			RegistryClient client = context.getBean(RegistryClient.class);
			assertThat(client.ping()).isEqualTo("BACKWARD");
			id[0] = client.register("orders-value", SCHEMA);
		});
		assertThat(data.resolve("schemas.json")).isRegularFile();
		// The context closed its registry, releasing the directory for the next run.
		enabled.run((context) -> assertThat(context.getBean(RegistryClient.class).lookup("orders-value", SCHEMA))
			.isEqualTo(id[0]));
	}

	@Test
	void temporaryKeepsSchemasInMemoryWithTheLevelConfigured(@TempDir Path data) {
		this.runner.withPropertyValues("lockstep.dev.embedded-registry.enabled=true",
				"lockstep.dev.embedded-registry.temporary=true", "lockstep.dev.embedded-registry.data-dir=" + data,
				"lockstep.dev.embedded-registry.compatibility=full")
			.run((context) -> {
				RegistryClient client = context.getBean(RegistryClient.class);
				assertThat(client.ping()).isEqualTo("FULL");
				client.register("orders-value", SCHEMA);
			});
		assertThat(data.resolve("schemas.json")).doesNotExist();
	}

	@Test
	void aConfiguredRegistryOrConnectionDetailsWin() {
		this.runner.withPropertyValues("lockstep.dev.embedded-registry.enabled=true",
				"lockstep.registry.url=http://127.0.0.1:9")
			.run((context) -> assertThat(context).doesNotHaveBean(EmbeddedSchemaRegistry.class)
				.hasSingleBean(RegistryClient.class));
		this.runner.withPropertyValues("lockstep.dev.embedded-registry.enabled=true")
			.withBean(SchemaRegistryConnectionDetails.class, () -> () -> List.of("http://127.0.0.1:9"))
			.run((context) -> assertThat(context).doesNotHaveBean(EmbeddedSchemaRegistry.class)
				.hasSingleBean(RegistryClient.class));
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(EmbeddedSchemaRegistry.class)
			.doesNotHaveBean(RegistryClient.class));
	}

}
