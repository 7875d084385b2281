package dev.lockstep.autoconfigure.dev;

import java.nio.file.Path;
import java.util.List;

import dev.lockstep.autoconfigure.LockstepProperties;
import dev.lockstep.autoconfigure.LockstepRegistryAutoConfiguration;
import dev.lockstep.autoconfigure.OnRegistryUrlCondition;
import dev.lockstep.autoconfigure.SchemaRegistryConnectionDetails;
import dev.lockstep.registry.server.EmbeddedSchemaRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.log.LogAccessor;

/**
 * Starts a development schema registry inside the JVM when
 * {@code lockstep.dev.embedded-registry.enabled=true} and no registry is configured, and
 * publishes it through {@link SchemaRegistryConnectionDetails} so that the registry codecs
 * use it. Connection details from elsewhere (a service connection, a test's) win.
 */
@AutoConfiguration(before = LockstepRegistryAutoConfiguration.class)
@ConditionalOnProperty(prefix = "lockstep.dev.embedded-registry", name = "enabled", havingValue = "true")
@Conditional(LockstepDevRegistryAutoConfiguration.OnNoRegistryUrl.class)
@ConditionalOnMissingBean(SchemaRegistryConnectionDetails.class)
@EnableConfigurationProperties(LockstepProperties.class)
public final class LockstepDevRegistryAutoConfiguration {

	private static final LogAccessor logger = new LogAccessor(LockstepDevRegistryAutoConfiguration.class);

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	EmbeddedSchemaRegistry lockstepDevSchemaRegistry(LockstepProperties properties) {
		LockstepProperties.EmbeddedRegistry settings = properties.getDev().getEmbeddedRegistry();
		Path directory = settings.isTemporary() ? null : Path.of(settings.getDataDir()).toAbsolutePath().normalize();
		EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.builder()
			.dataDirectory(directory)
			.compatibility(settings.getCompatibility())
			.start();
		logger.info(() -> "Development schema registry on " + registry.url() + ", "
				+ ((directory != null) ? "schemas in " + directory : "schemas in memory"));
		return registry;
	}

	@Bean
	SchemaRegistryConnectionDetails lockstepDevRegistryConnectionDetails(EmbeddedSchemaRegistry registry) {
		return () -> List.of(registry.url());
	}

	/**
	 * Matches when {@code lockstep.registry.url} is not set.
	 */
	static final class OnNoRegistryUrl extends NoneNestedConditions {

		OnNoRegistryUrl() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@Conditional(OnRegistryUrlCondition.class)
		static final class RegistryUrl {

		}

	}

}
