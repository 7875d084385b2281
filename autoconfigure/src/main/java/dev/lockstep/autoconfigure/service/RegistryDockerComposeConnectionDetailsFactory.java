package dev.lockstep.autoconfigure.service;

import java.util.List;

import dev.lockstep.autoconfigure.SchemaRegistryConnectionDetails;

import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionDetailsFactory;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;

/**
 * {@link SchemaRegistryConnectionDetails} for a Docker Compose service running one of the
 * {@link RegistryImage images} Lockstep knows.
 */
abstract class RegistryDockerComposeConnectionDetailsFactory
		extends DockerComposeConnectionDetailsFactory<SchemaRegistryConnectionDetails> {

	private final RegistryImage image;

	RegistryDockerComposeConnectionDetailsFactory(RegistryImage image) {
		super(image.names().toArray(String[]::new));
		this.image = image;
	}

	@Override
	protected SchemaRegistryConnectionDetails getDockerComposeConnectionDetails(DockerComposeConnectionSource source) {
		return new Details(source.getRunningService(), this.image);
	}

	/**
	 * Confluent's Schema Registry service.
	 */
	static final class Confluent extends RegistryDockerComposeConnectionDetailsFactory {

		Confluent() {
			super(RegistryImage.CONFLUENT);
		}

	}

	/**
	 * Apicurio Registry's service.
	 */
	static final class Apicurio extends RegistryDockerComposeConnectionDetailsFactory {

		Apicurio() {
			super(RegistryImage.APICURIO);
		}

	}

	static final class Details extends DockerComposeConnectionDetails implements SchemaRegistryConnectionDetails {

		private final String url;

		Details(RunningService service, RegistryImage image) {
			super(service);
			this.url = image.url(service.host(), service.ports().get(image.port()));
		}

		@Override
		public List<String> getUrls() {
			return List.of(this.url);
		}

	}

}
