package dev.lockstep.autoconfigure.service;

import java.util.List;

import dev.lockstep.autoconfigure.SchemaRegistryConnectionDetails;
import org.testcontainers.containers.GenericContainer;

import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;

/**
 * {@link SchemaRegistryConnectionDetails} for a {@code @ServiceConnection} registry
 * container of one of the {@link RegistryImage images} Lockstep knows.
 */
abstract class RegistryContainerConnectionDetailsFactory
		extends ContainerConnectionDetailsFactory<GenericContainer<?>, SchemaRegistryConnectionDetails> {

	private final RegistryImage image;

	RegistryContainerConnectionDetailsFactory(RegistryImage image) {
		super(image.names());
		this.image = image;
	}

	@Override
	protected SchemaRegistryConnectionDetails getContainerConnectionDetails(
			ContainerConnectionSource<GenericContainer<?>> source) {
		return new Details(source, this.image);
	}

	/**
	 * Confluent's Schema Registry container.
	 */
	static final class Confluent extends RegistryContainerConnectionDetailsFactory {

		Confluent() {
			super(RegistryImage.CONFLUENT);
		}

	}

	/**
	 * Apicurio Registry's container.
	 */
	static final class Apicurio extends RegistryContainerConnectionDetailsFactory {

		Apicurio() {
			super(RegistryImage.APICURIO);
		}

	}

	private static final class Details extends ContainerConnectionDetails<GenericContainer<?>>
			implements SchemaRegistryConnectionDetails {

		private final RegistryImage image;

		Details(ContainerConnectionSource<GenericContainer<?>> source, RegistryImage image) {
			super(source);
			this.image = image;
		}

		@Override
		public List<String> getUrls() {
			GenericContainer<?> container = getContainer();
			return List.of(this.image.url(container.getHost(), container.getMappedPort(this.image.port())));
		}

	}

}
