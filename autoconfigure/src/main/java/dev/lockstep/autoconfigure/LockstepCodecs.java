package dev.lockstep.autoconfigure;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.registry.RegistryClient;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The codecs YAML names, each a {@link LockstepCodec}: Lockstep's own (bytes, string,
 * json, raw-avro, protobuf, and registry-avro, registry-json-schema and registry-protobuf
 * over the shared {@link RegistryClient}) and the application's {@link LockstepCodec}
 * beans, which replace Lockstep's of the same name. A {@link LockstepCodec} bean is the one
 * way to add or replace an encoding.
 */
public final class LockstepCodecs {

	// By canonical name (letters and digits, lower case), as Spring matches enum values.
	private final Map<String, LockstepCodec> codecs = new TreeMap<>();

	/**
	 * Create Lockstep's own codecs.
	 * @param registryClient the registry client, or {@code null} when no registry is configured
	 * @param autoRegister whether registry serializers register missing schemas
	 */
	public LockstepCodecs(RegistryClient registryClient, boolean autoRegister) {
		this(registryClient, autoRegister, List.of());
	}

	/**
	 * Create Lockstep's own codecs and the application's.
	 * @param registryClient the registry client, or {@code null} when no registry is configured
	 * @param autoRegister whether registry serializers register missing schemas
	 * @param codecs the application's codecs; two of one name are refused
	 */
	public LockstepCodecs(RegistryClient registryClient, boolean autoRegister, List<LockstepCodec> codecs) {
		new BuiltInCodecs(registryClient, autoRegister).all().forEach((codec) -> this.codecs.put(canonical(codec.name()), codec));
		Map<String, LockstepCodec> applications = new TreeMap<>();
		for (LockstepCodec codec : codecs) {
			LockstepCodec other = applications.put(canonical(codec.name()), codec);
			if (other != null) {
				throw new IllegalStateException("Two LockstepCodec beans are named '" + other.name() + "' and '"
						+ codec.name() + "' (" + other.getClass().getName() + ", " + codec.getClass().getName()
						+ "): a worker could not tell which one it names");
			}
		}
		this.codecs.putAll(applications);
	}

	/**
	 * Build the serializer a codec setting names.
	 * @param codec the encoding
	 * @param isKey whether it encodes keys
	 * @param property the property that configured it, for error messages
	 * @return a configured, thread-safe serializer
	 */
	public Serializer<?> serializer(LockstepProperties.Codec codec, boolean isKey, String property) {
		return codec(codec, property).serializer(settings(codec, isKey, property));
	}

	/**
	 * Build the deserializer a codec setting names.
	 * @param codec the encoding
	 * @param isKey whether it decodes keys
	 * @param property the property that configured it, for error messages
	 * @return a configured, thread-safe deserializer
	 */
	public Deserializer<?> deserializer(LockstepProperties.Codec codec, boolean isKey, String property) {
		return codec(codec, property).deserializer(settings(codec, isKey, property));
	}

	/**
	 * Return whether the codec a setting names calls the schema registry on the record
	 * path, so that a worker's transaction budget must allow for the registry's longest wait.
	 * @param codec the encoding
	 * @return whether it does
	 */
	public boolean usesRegistry(LockstepProperties.Codec codec) {
		LockstepCodec found = this.codecs.get(canonical(codec.getCodec()));
		return found != null && found.usesRegistry();
	}

	private LockstepCodec codec(LockstepProperties.Codec codec, String property) {
		LockstepCodec found = this.codecs.get(canonical(codec.getCodec()));
		if (found == null) {
			String names = this.codecs.values().stream().map(LockstepCodec::name).sorted().collect(Collectors.joining(", "));
			throw new LockstepConfigurationException(property + ".codec", null,
					"there is no codec '" + codec.getCodec() + "'; the codecs are " + names,
					"Name one of them, or define a LockstepCodec bean whose name() is '" + codec.getCodec() + "'.");
		}
		return found;
	}

	private static CodecSettings settings(LockstepProperties.Codec codec, boolean isKey, String property) {
		return new CodecSettings(property, isKey, codec.getType(), codec.getSchema(), codec.getSchemaId(),
				codec.getSubjectNameStrategy());
	}

	/**
	 * Return a codec name as Spring matches enum values: its letters and digits, lower
	 * case ({@code registry-avro}, {@code REGISTRY_AVRO} and {@code registryAvro} are one).
	 * @param name a codec name
	 * @return the canonical form
	 */
	static String canonical(String name) {
		return (name != null) ? name.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT) : "";
	}

}
