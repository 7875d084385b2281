package dev.lockstep.autoconfigure;

import java.nio.file.Path;

import javax.net.ssl.SSLContext;

import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.autoconfigure.validation.PropertyOrigins;
import dev.lockstep.autoconfigure.validation.TransportSecurity;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryListener;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.PropertyMapper;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the schema registry client (from a
 * {@link SchemaRegistryConnectionDetails} bean, or {@code lockstep.registry.*}) and of the
 * codec factory that workers and producers build their serdes with.
 */
@AutoConfiguration
@ConditionalOnClass(RegistryClient.class)
@EnableConfigurationProperties(LockstepProperties.class)
public final class LockstepRegistryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(SchemaRegistryConnectionDetails.class)
	@Conditional(OnRegistryUrlCondition.class)
	PropertiesSchemaRegistryConnectionDetails lockstepRegistryConnectionDetails(LockstepProperties properties) {
		return new PropertiesSchemaRegistryConnectionDetails(properties.getRegistry());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(SchemaRegistryConnectionDetails.class)
	RegistryClient lockstepRegistryClient(LockstepProperties properties, SchemaRegistryConnectionDetails connection,
			ObjectProvider<RegistryListener> listeners, ObjectProvider<SslBundles> sslBundles, Environment environment) {
		LockstepProperties.Registry registry = properties.getRegistry();
		PropertyOrigins origins = new PropertyOrigins(environment);
		if (registry.getSslBundle() != null && registry.getCaFile() != null) {
			throw new LockstepConfigurationException("lockstep.registry.ca-file", origins.of("lockstep.registry.ca-file"),
					"lockstep.registry.ca-file and lockstep.registry.ssl-bundle are exclusive",
					"Put the CA certificates into the SSL bundle's trust store, or drop the bundle.");
		}
		new TransportSecurity(properties.getSecurity().isRequireEncryption(), origins)
			.checkRegistry(connection.getUrls(), (connection instanceof PropertiesSchemaRegistryConnectionDetails)
					? "lockstep.registry.url" : "the schema registry's connection details ("
							+ connection.getClass().getName() + ")");
		RegistryClient.Builder builder = RegistryClient.builder(connection.getUrls());
		PropertyMapper map = PropertyMapper.get();
		map.from(connection::getUsername).to((username) -> builder.basicAuth(username, connection.getPassword()));
		map.from(connection::getBearerToken).to(builder::bearerToken);
		map.from(registry::getCaFile).as(Path::of).to(builder::caCertificates);
		map.from(registry::getSslBundle)
			.as((bundle) -> sslContext(bundle, sslBundles.getIfAvailable(), origins))
			.to(builder::sslContext);
		map.from(registry::getTimeout).to(builder::timeout);
		map.from(registry::getMaxResponseSize).as((size) -> (int) size.toBytes()).to(builder::maxResponseBytes);
		map.from(registry::getCacheCapacity).to(builder::cacheCapacity);
		map.from(registry::getRetries).to(builder::retries);
		map.from(registry::isNormalizeSchemas).to(builder::normalizeSchemas);
		map.from(registry::getIgnoredRules).to(builder::ignoredRules);
		listeners.ifUnique(builder::listener);
		return builder.build();
	}

	private static SSLContext sslContext(String bundle, SslBundles bundles, PropertyOrigins origins) {
		try {
			if (bundles != null) {
				return bundles.getBundle(bundle).createSslContext();
			}
		}
		catch (NoSuchSslBundleException ex) {
			// Refused below, naming the property.
		}
		String property = "lockstep.registry.ssl-bundle";
		throw new LockstepConfigurationException(property, origins.of(property),
				"there is no SSL bundle named '" + bundle + "'",
				"Define it under spring.ssl.bundle.jks." + bundle + " or spring.ssl.bundle.pem." + bundle + ".");
	}

	// Not replaceable: a LockstepCodec bean is the one way to add or replace an encoding.
	@Bean
	LockstepCodecs lockstepCodecs(LockstepProperties properties, ObjectProvider<RegistryClient> registryClient,
			ObjectProvider<LockstepCodec> codecs) {
		return new LockstepCodecs(registryClient.getIfAvailable(), properties.getRegistry().isAutoRegister(),
				codecs.orderedStream().toList());
	}

}
