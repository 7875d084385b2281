package dev.lockstep.test.kafka;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a test broker runs: a Kafka release, the feature levels its storage is formatted
 * with where the release's defaults should not apply (such as
 * {@code transaction.version=1}, transactions v1 on a Kafka 4 broker), broker properties
 * over the test defaults, and a broker process's JVM options. Immutable: each
 * {@code with}-method returns a new spec.
 *
 * @param release the Kafka release
 * @param features feature levels set when the storage is formatted
 * @param overrides broker properties that win over the test defaults
 * @param jvmOptions options of a broker process's JVM (unused in this JVM)
 */
public record KafkaBrokerSpec(KafkaRelease release, Map<String, Short> features, Map<String, String> overrides,
		List<String> jvmOptions) {

	/** System property choosing the release of the brokers {@link TestBrokers} starts: a version or a line. */
	public static final String VERSION_PROPERTY = "lockstep.test.kafka.version";

	/**
	 * System property with feature levels for the brokers {@link TestBrokers} starts, such as
	 * {@code transaction.version=1,group.version=1}.
	 */
	public static final String FEATURES_PROPERTY = "lockstep.test.kafka.features";

	/**
	 * JVM options of a broker process unless others are given: the C1 compiler alone,
	 * since a test broker lives seconds to minutes and full JIT compilation costs more CPU
	 * than it saves on a shared machine.
	 */
	public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-Xmx512m", "-XX:+UseSerialGC",
			"-XX:TieredStopAtLevel=1");

	public KafkaBrokerSpec {
		features = Map.copyOf(features);
		overrides = Map.copyOf(overrides);
		jvmOptions = List.copyOf(jvmOptions);
	}

	/**
	 * The release on this JVM's class path with its default features and the test defaults.
	 * @return the default spec
	 */
	public static KafkaBrokerSpec defaults() {
		return new KafkaBrokerSpec(KafkaRelease.current(), Map.of(), Map.of(), DEFAULT_JVM_OPTIONS);
	}

	/**
	 * The spec the system properties {@value #VERSION_PROPERTY} and {@value #FEATURES_PROPERTY}
	 * ask for, the defaults otherwise.
	 * @param systemProperties the system properties
	 * @return the spec
	 */
	public static KafkaBrokerSpec fromSystemProperties(Function<String, String> systemProperties) {
		KafkaBrokerSpec spec = defaults();
		String version = systemProperties.apply(VERSION_PROPERTY);
		if (version != null && !version.isBlank()) {
			spec = spec.withRelease(KafkaRelease.named(version.trim(), systemProperties));
		}
		String features = systemProperties.apply(FEATURES_PROPERTY);
		if (features != null && !features.isBlank()) {
			for (String feature : features.split(",")) {
				String[] nameAndLevel = feature.split("=");
				if (nameAndLevel.length != 2) {
					throw new IllegalArgumentException(
							"-D" + FEATURES_PROPERTY + "=" + features + ": use name=level pairs separated by commas");
				}
				spec = spec.withFeature(nameAndLevel[0].trim(), Short.parseShort(nameAndLevel[1].trim()));
			}
		}
		return spec;
	}

	/**
	 * Return this spec with another release.
	 * @param release the release
	 * @return the new spec
	 */
	public KafkaBrokerSpec withRelease(KafkaRelease release) {
		return new KafkaBrokerSpec(release, this.features, this.overrides, this.jvmOptions);
	}

	/**
	 * Return this spec with a feature level set at format time.
	 * @param name the feature, such as {@code transaction.version}
	 * @param level its level
	 * @return the new spec
	 */
	public KafkaBrokerSpec withFeature(String name, int level) {
		Map<String, Short> features = new LinkedHashMap<>(this.features);
		features.put(name, (short) level);
		return new KafkaBrokerSpec(this.release, features, this.overrides, this.jvmOptions);
	}

	/**
	 * Return this spec with more broker properties.
	 * @param overrides broker properties that win over the test defaults and earlier ones
	 * @return the new spec
	 */
	public KafkaBrokerSpec withOverrides(Map<String, String> overrides) {
		Map<String, String> merged = new LinkedHashMap<>(this.overrides);
		merged.putAll(overrides);
		return new KafkaBrokerSpec(this.release, this.features, merged, this.jvmOptions);
	}

	/**
	 * Return this spec with other JVM options for broker processes.
	 * @param jvmOptions the options
	 * @return the new spec
	 */
	public KafkaBrokerSpec withJvmOptions(List<String> jvmOptions) {
		return new KafkaBrokerSpec(this.release, this.features, this.overrides, new ArrayList<>(jvmOptions));
	}

	/**
	 * Return a short description, such as {@code Kafka 4.1.2 transaction.version=1}.
	 * @return the description
	 */
	public String describe() {
		return this.release + this.features.entrySet()
			.stream()
			.map((feature) -> " " + feature.getKey() + "=" + feature.getValue())
			.sorted()
			.collect(Collectors.joining());
	}

}
