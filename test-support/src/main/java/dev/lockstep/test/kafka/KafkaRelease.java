package dev.lockstep.test.kafka;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.lockstep.kraft.KRaftNode;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * A Kafka server release that a test broker runs: the release on this JVM's class path
 * (in this JVM or as a separate process), or another release's server jars, which run
 * only as a separate process because two releases cannot share one class path.
 * <p>
 * Another release is found through the system property
 * {@value #CLASS_PATH_PROPERTY_PREFIX}{@code <version>}, naming a file that holds the
 * release's server class path as {@code dependency:build-classpath} writes it. The build
 * sets it for Kafka 3.9 (module {@code kafka-3.9}).
 *
 * @param version the release's version, such as {@code 4.1.2}
 * @param jars the release's server jars; empty for the release on this JVM's class path
 */
public record KafkaRelease(String version, List<Path> jars) {

	/** Prefix of the system property naming another release's class path file. */
	public static final String CLASS_PATH_PROPERTY_PREFIX = "lockstep.test.kafka-release.";

	private static final String VERSION_RESOURCE = "/kafka/kafka-version.properties";

	private static final Pattern SERVER_JAR = Pattern.compile("kafka_2\\.1[23]-([0-9][^/\\\\]*)\\.jar");

	public KafkaRelease {
		jars = List.copyOf(jars);
	}

	/**
	 * Return the release on this JVM's class path.
	 * @return the current release
	 */
	public static KafkaRelease current() {
		return new KafkaRelease(clientsVersion(), List.of());
	}

	// The version kafka-clients' jar states in its resource: Kafka's AppInfoParser, which
	// reads it, is no public API (Kafka 4.4 moved it).
	private static String clientsVersion() {
		try (InputStream resource = KafkaProducer.class.getResourceAsStream(VERSION_RESOURCE)) {
			if (resource == null) {
				throw new IllegalStateException("No " + VERSION_RESOURCE + " beside " + KafkaProducer.class);
			}
			Properties properties = new Properties();
			properties.load(resource);
			return properties.getProperty("version");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Return a release by its version or release line ({@code 3.9} finds {@code 3.9.2}).
	 * @param version a full version or a release line
	 * @return the release
	 * @throws IllegalStateException when it is not this JVM's and no class path file names it
	 */
	public static KafkaRelease named(String version) {
		return named(version, System::getProperty);
	}

	static KafkaRelease named(String version, Function<String, String> systemProperties) {
		KafkaRelease current = current();
		if (current.matches(version)) {
			return current;
		}
		String file = systemProperties.apply(CLASS_PATH_PROPERTY_PREFIX + version);
		if (file == null || file.isBlank()) {
			throw new IllegalStateException("Kafka " + version + " is not on this JVM's class path (Kafka "
					+ current.version() + " is). Set -D" + CLASS_PATH_PROPERTY_PREFIX + version
					+ " to a file holding that release's server class path, as dependency:build-classpath writes it.");
		}
		KafkaRelease release = fromClassPathFile(Path.of(file.trim()));
		if (!release.matches(version)) {
			throw new IllegalStateException(file + " holds Kafka " + release.version() + ", not " + version);
		}
		return release;
	}

	/**
	 * Read a release from a file holding its server class path.
	 * @param file the class path file
	 * @return the release, its version read from its {@code kafka_2.13} jar
	 */
	static KafkaRelease fromClassPathFile(Path file) {
		String classPath;
		try {
			classPath = Files.readString(file).trim();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the Kafka class path file " + file
					+ "; build the module that writes it first", ex);
		}
		List<Path> jars = Arrays.stream(classPath.split(Pattern.quote(File.pathSeparator)))
			.filter((entry) -> !entry.isBlank())
			.map(Path::of)
			.toList();
		String version = jars.stream()
			.map((jar) -> SERVER_JAR.matcher(jar.getFileName().toString()))
			.filter(Matcher::matches)
			.map((matcher) -> matcher.group(1))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No Kafka server jar (kafka_2.13-<version>.jar) in " + file));
		return new KafkaRelease(version, jars);
	}

	/**
	 * Return whether this is the release on this JVM's class path.
	 * @return whether it can run inside this JVM
	 */
	public boolean isCurrent() {
		return this.jars.isEmpty();
	}

	/**
	 * Return whether this release has the given version or belongs to the given release line.
	 * @param versionOrLine a full version, or a line such as {@code 3.9}
	 * @return whether it matches
	 */
	public boolean matches(String versionOrLine) {
		return this.version.equals(versionOrLine) || this.version.startsWith(versionOrLine + ".");
	}

	/**
	 * The class path of a broker process of this release: this JVM's own for the current
	 * release; otherwise the release's jars after Lockstep's node launcher, which uses only
	 * server APIs every supported release has.
	 */
	String processClassPath() {
		if (isCurrent()) {
			return System.getProperty("java.class.path");
		}
		List<Path> entries = new ArrayList<>(List.of(codeSource(KRaftNode.class), codeSource(KafkaBrokerMain.class)));
		entries.addAll(this.jars);
		return entries.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
	}

	@Override
	public String toString() {
		return "Kafka " + this.version;
	}

	private static Path codeSource(Class<?> type) {
		try {
			return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException("Cannot locate the classes of " + type.getName(), ex);
		}
	}

}
