package dev.lockstep.autoconfigure;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.registry.RegistryClient;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Finds each {@link LockstepProperties.Codec}'s {@link LockstepCodec} by the name YAML
 * gives it: Lockstep's own (bytes, string, raw-avro, and registry-avro and
 * registry-json-schema over the shared {@link RegistryClient}) and those of the
 * application's {@link LockstepCodec} beans, which replace Lockstep's of the same name.
 */
public class DefaultCodecFactory implements CodecFactory {

	private final Map<String, LockstepCodec> codecs = new TreeMap<>();

	/**
	 * Create a factory of Lockstep's own codecs.
	 * @param registryClient the registry client, or {@code null} when no registry is configured
	 * @param autoRegister whether registry serializers register missing schemas
	 */
	public DefaultCodecFactory(RegistryClient registryClient, boolean autoRegister) {
		this(registryClient, autoRegister, List.of());
	}

	/**
	 * Create a factory of Lockstep's own codecs and the application's.
	 * @param registryClient the registry client, or {@code null} when no registry is configured
	 * @param autoRegister whether registry serializers register missing schemas
	 * @param codecs the application's codecs
	 */
	public DefaultCodecFactory(RegistryClient registryClient, boolean autoRegister, List<LockstepCodec> codecs) {
		new BuiltInCodecs(registryClient, autoRegister).all().forEach(this::add);
		codecs.forEach(this::add);
	}

	@Override
	public Serializer<?> serializer(LockstepProperties.Codec codec, boolean isKey, String property) {
		return codec(codec, property).serializer(settings(codec, isKey, property));
	}

	@Override
	public Deserializer<?> deserializer(LockstepProperties.Codec codec, boolean isKey, String property) {
		return codec(codec, property).deserializer(settings(codec, isKey, property));
	}

	@Override
	public boolean usesRegistry(LockstepProperties.Codec codec) {
		LockstepCodec found = this.codecs.get(normalized(codec.getCodec()));
		return found != null && found.usesRegistry();
	}

	private void add(LockstepCodec codec) {
		this.codecs.put(normalized(codec.name()), codec);
	}

	private LockstepCodec codec(LockstepProperties.Codec codec, String property) {
		LockstepCodec found = this.codecs.get(normalized(codec.getCodec()));
		if (found == null) {
			throw new LockstepConfigurationException(property + ".codec", null,
					"there is no codec '" + codec.getCodec() + "'; the codecs are " + String.join(", ", this.codecs.keySet()),
					"Name one of them, or define a LockstepCodec bean whose name() is '" + codec.getCodec() + "'.");
		}
		return found;
	}

	private static CodecSettings settings(LockstepProperties.Codec codec, boolean isKey, String property) {
		return new CodecSettings(property, isKey, codec.getType(), codec.getSchema());
	}

	// As Spring binds enum values: REGISTRY_AVRO, registry_avro and registry-avro are one name.
	private static String normalized(String name) {
		return (name != null) ? name.trim().toLowerCase(Locale.ROOT).replace('_', '-') : "";
	}

}
