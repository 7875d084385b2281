package dev.lockstep.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import dev.lockstep.registry.RegistryClient;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registry client's auto-configuration: from {@code lockstep.registry.*}, or from a
 * {@link SchemaRegistryConnectionDetails} bean, which wins.
 */
class LockstepRegistryAutoConfigurationTests {

	private final TestSchemaRegistry registry = TestSchemaRegistry.start();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockstepRegistryAutoConfiguration.class));

	@AfterEach
	void stopRegistry() {
		this.registry.close();
	}

	@Test
	void noUrlAndNoConnectionDetailsMeanNoClient() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(RegistryClient.class)
			.doesNotHaveBean(SchemaRegistryConnectionDetails.class)
			.hasSingleBean(LockstepCodecs.class));
	}

	@Test
	void theYamlsRegistryDefaultsAreTheClientsOwn() {
		this.runner.withPropertyValues("lockstep.registry.url=http://127.0.0.1:1")
			.run((context) -> assertThat(context.getBean(RegistryClient.class).longestWait())
				.isEqualTo(RegistryClient.builder("http://127.0.0.1:1").build().longestWait()));
		LockstepProperties.Registry yaml = new LockstepProperties().getRegistry();
		assertThat(yaml.getMaxResponseSize().toBytes()).isEqualTo(RegistryClient.Builder.DEFAULT_MAX_RESPONSE_BYTES);
		assertThat(yaml.getCacheCapacity()).isEqualTo(RegistryClient.Builder.DEFAULT_CACHE_CAPACITY);
	}

	@Test
	void propertiesAreTheConnectionDetailsWhenNoBeanIsDefined() {
		this.runner
			.withPropertyValues("lockstep.registry.url=" + this.registry.url(), "lockstep.registry.username=svc",
					"lockstep.registry.password=secret")
			.run((context) -> {
				assertThat(context).hasSingleBean(PropertiesSchemaRegistryConnectionDetails.class);
				assertThat(context.getBean(RegistryClient.class).ping()).isEqualTo("BACKWARD");
				assertThat(this.registry.lastRequestHeader("Authorization")).isEqualTo(basic("svc", "secret"));
			});
	}

	@Test
	void normalizeSchemasAsksTheRegistryToNormalize() {
		this.runner
			.withPropertyValues("lockstep.registry.url=" + this.registry.url(), "lockstep.registry.normalize-schemas=true")
			.run((context) -> {
				context.getBean(RegistryClient.class).register("orders-value", Schema.create(Schema.Type.STRING));
				assertThat(this.registry.lastRequestQuery()).isEqualTo("normalize=true");
			});
	}

	@Test
	void aConnectionDetailsBeanReplacesTheUrlAndCredentialsButNotTheOtherSettings() {
		SchemaRegistryConnectionDetails details = new SchemaRegistryConnectionDetails() {

			@Override
			public List<String> getUrls() {
				return List.of(LockstepRegistryAutoConfigurationTests.this.registry.url());
			}

			@Override
			public String getUsername() {
				return "from-details";
			}

			@Override
			public String getPassword() {
				return "pw";
			}

		};
		this.runner.withBean(SchemaRegistryConnectionDetails.class, () -> details)
			.withPropertyValues("lockstep.registry.url=http://127.0.0.1:9", "lockstep.registry.username=svc",
					"lockstep.registry.retries=0")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(PropertiesSchemaRegistryConnectionDetails.class);
				RegistryClient client = context.getBean(RegistryClient.class);
				assertThat(client.ping()).isEqualTo("BACKWARD");
				assertThat(this.registry.lastRequestHeader("Authorization")).isEqualTo(basic("from-details", "pw"));
				assertThat(client.longestWait()).isEqualTo(java.time.Duration.ofSeconds(2));
			});
		this.runner.withBean(SchemaRegistryConnectionDetails.class, () -> details)
			.run((context) -> assertThat(context.getBean(RegistryClient.class).ping()).isEqualTo("BACKWARD"));
	}

	@Test
	void aPlaintextRemoteRegistryFromConnectionDetailsIsRefusedNamingThem() {
		SchemaRegistryConnectionDetails remote = () -> List.of("http://10.1.2.3:8081");
		this.runner.withBean(SchemaRegistryConnectionDetails.class, () -> remote)
			.withPropertyValues("lockstep.security.require-encryption=true")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("the schema registry's connection details")
				.hasMessageNotContaining("lockstep.registry.url"));
	}

	private static String basic(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

}
