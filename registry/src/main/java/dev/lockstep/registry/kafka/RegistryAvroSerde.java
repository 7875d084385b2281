package dev.lockstep.registry.kafka;

import java.util.Map;

import dev.lockstep.registry.RegistryClient;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A {@link Serde} of {@link RegistryAvroSerializer} and {@link RegistryAvroDeserializer},
 * configured together.
 *
 * @param <T> the record type
 */
public class RegistryAvroSerde<T> implements Serde<T> {

	private final RegistryAvroSerializer<T> serializer;

	private final RegistryAvroDeserializer<T> deserializer;

	/**
	 * Create a serde whose halves build their registry client from the configuration.
	 */
	public RegistryAvroSerde() {
		this.serializer = new RegistryAvroSerializer<>();
		this.deserializer = new RegistryAvroDeserializer<>();
	}

	/**
	 * Create a serde whose halves share a registry client.
	 * @param client the registry client
	 */
	public RegistryAvroSerde(RegistryClient client) {
		this.serializer = new RegistryAvroSerializer<>(client);
		this.deserializer = new RegistryAvroDeserializer<>(client);
	}

	@Override
	public void configure(Map<String, ?> configs, boolean isKey) {
		this.serializer.configure(configs, isKey);
		this.deserializer.configure(configs, isKey);
	}

	@Override
	public Serializer<T> serializer() {
		return this.serializer;
	}

	@Override
	public Deserializer<T> deserializer() {
		return this.deserializer;
	}

}
