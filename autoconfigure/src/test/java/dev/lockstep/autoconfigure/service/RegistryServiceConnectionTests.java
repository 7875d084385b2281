package dev.lockstep.autoconfigure.service;

import java.lang.reflect.Constructor;
import java.util.Map;

import dev.lockstep.autoconfigure.SchemaRegistryConnectionDetails;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactories;
import org.springframework.boot.docker.compose.core.ConnectionPorts;
import org.springframework.boot.docker.compose.core.ImageReference;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * The registry service connections without Docker: Spring Boot finds Lockstep's factories
 * (registered in {@code spring.factories}) by the service's image, and they point at the
 * registry's published port and API path.
 */
class RegistryServiceConnectionTests {

	@Test
	void aComposeServiceOfConfluentsImageIsTheRegistryOnItsPublishedPort() throws Exception {
		assertThat(composeDetails("confluentinc/cp-schema-registry:7.9.0", 8081, 32768).getUrls())
			.containsExactly("http://127.0.0.1:32768");
	}

	@Test
	void aComposeServiceOfApicuriosImageIsItsConfluentCompatibleApi() throws Exception {
		assertThat(composeDetails("apicurio/apicurio-registry:3.0.0", 8080, 40001).getUrls())
			.containsExactly("http://127.0.0.1:40001/apis/ccompat/v7");
		assertThat(composeDetails("quay.io/apicurio/apicurio-registry-mem:2.6.5.Final", 8080, 40002).getUrls())
			.containsExactly("http://127.0.0.1:40002/apis/ccompat/v7");
	}

	@Test
	void aComposeServiceOfAnotherImageIsNoRegistry() throws Exception {
		Map<Class<?>, ConnectionDetails> details = new ConnectionDetailsFactories(getClass().getClassLoader())
			.getConnectionDetails(source("redis:7", 6379, 6379), false);
		assertThat(details).doesNotContainKey(SchemaRegistryConnectionDetails.class);
	}

	@Test
	void urlsBracketIpv6Hosts() {
		assertThat(RegistryImage.CONFLUENT.url("::1", 8081)).isEqualTo("http://[::1]:8081");
		assertThat(RegistryImage.APICURIO.url("registry.local", 8080))
			.isEqualTo("http://registry.local:8080/apis/ccompat/v7");
	}

	private static SchemaRegistryConnectionDetails composeDetails(String image, int port, int published)
			throws Exception {
		Map<Class<?>, ConnectionDetails> details = new ConnectionDetailsFactories(
				RegistryServiceConnectionTests.class.getClassLoader())
			.getConnectionDetails(source(image, port, published), true);
		return (SchemaRegistryConnectionDetails) details.get(SchemaRegistryConnectionDetails.class);
	}

	private static DockerComposeConnectionSource source(String image, int port, int published) throws Exception {
		RunningService service = mock(RunningService.class);
		ConnectionPorts ports = mock(ConnectionPorts.class);
		given(ports.get(port)).willReturn(published);
		given(service.name()).willReturn("registry");
		given(service.image()).willReturn(ImageReference.of(image));
		given(service.host()).willReturn("127.0.0.1");
		given(service.ports()).willReturn(ports);
		given(service.labels()).willReturn(Map.of());
		given(service.env()).willReturn(Map.of());
		// Spring Boot builds the source itself; its constructor is not public.
		Constructor<DockerComposeConnectionSource> constructor = DockerComposeConnectionSource.class
			.getDeclaredConstructor(RunningService.class, org.springframework.core.env.Environment.class);
		constructor.setAccessible(true);
		return constructor.newInstance(service, new MockEnvironment());
	}

}
