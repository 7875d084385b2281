package dev.lockstep.test.kafka;

import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Gives a test a real Kafka broker, chosen in this order:
 * <ol>
 * <li>an external cluster when the environment variable
 * {@value #BOOTSTRAP_SERVERS_ENV} is set;</li>
 * <li>otherwise the broker that the system property {@value #BROKER_PROPERTY} asks for:
 * {@code testcontainers} (fails clearly without Docker), {@code process} (a separate
 * broker process), or {@code in-jvm};</li>
 * <li>otherwise Kafka's own KRaft broker inside the test JVM, or as a separate process
 * when the release asked for is not the one on the test class path.</li>
 * </ol>
 * The system properties {@value KafkaBrokerSpec#VERSION_PROPERTY} (a release, such as
 * {@code 3.9}) and {@value KafkaBrokerSpec#FEATURES_PROPERTY} (feature levels, such as
 * {@code transaction.version=1}) choose what the started broker runs. Every broker
 * started here listens on 127.0.0.1 only, on ports from {@code FreePorts}, and is
 * configured so that transactions work on a single node.
 */
public final class TestBrokers {

	/** Environment variable naming an external cluster's bootstrap servers. */
	public static final String BOOTSTRAP_SERVERS_ENV = "LOCKSTEP_TEST_BOOTSTRAP_SERVERS";

	/** System property choosing the kind of broker when no external cluster is given. */
	public static final String BROKER_PROPERTY = "lockstep.test.broker";

	/**
	 * The kinds of broker a test can be given.
	 */
	public enum Kind {

		/** A cluster started outside the test. */
		EXTERNAL,

		/** Kafka's container image, run by Testcontainers. */
		TESTCONTAINERS,

		/** A KRaft broker as a separate OS process. */
		PROCESS,

		/** A KRaft broker inside the test JVM. */
		IN_JVM

	}

	private TestBrokers() {
	}

	/**
	 * Start (or connect to) the broker this environment asks for.
	 * @return the broker; close it when the test is done
	 */
	public static KafkaBroker start() {
		String external = System.getenv(BOOTSTRAP_SERVERS_ENV);
		return switch (select(System.getenv(), System::getProperty)) {
			case EXTERNAL -> new ExternalKafkaCluster(external.trim());
			case TESTCONTAINERS -> startTestcontainers();
			case PROCESS -> KafkaBrokerProcess.start(KafkaBrokerSpec.fromSystemProperties(System::getProperty));
			case IN_JVM -> InJvmKafkaBroker.start(KafkaBrokerSpec.fromSystemProperties(System::getProperty));
		};
	}

	/**
	 * Decide which kind of broker to use.
	 * @param env the environment variables
	 * @param systemProperties the system properties
	 * @return the kind of broker
	 * @throws IllegalArgumentException when {@value #BROKER_PROPERTY} has an unknown value
	 */
	public static Kind select(Map<String, String> env, Function<String, String> systemProperties) {
		String external = env.get(BOOTSTRAP_SERVERS_ENV);
		if (external != null && !external.isBlank()) {
			return Kind.EXTERNAL;
		}
		String requested = systemProperties.apply(BROKER_PROPERTY);
		if (requested == null || requested.isBlank()) {
			String version = systemProperties.apply(KafkaBrokerSpec.VERSION_PROPERTY);
			boolean otherRelease = version != null && !version.isBlank()
					&& !KafkaRelease.current().matches(version.trim());
			return otherRelease ? Kind.PROCESS : Kind.IN_JVM;
		}
		return switch (requested.trim().toLowerCase(Locale.ROOT)) {
			case "testcontainers" -> Kind.TESTCONTAINERS;
			case "process" -> Kind.PROCESS;
			case "in-jvm" -> Kind.IN_JVM;
			default -> throw new IllegalArgumentException("Unknown -D" + BROKER_PROPERTY + "=" + requested
					+ "; use testcontainers, process or in-jvm");
		};
	}

	// Images are tagged by full version: a release line (3.9) means the one the build knows.
	private static String imageVersion(String version) {
		try {
			return KafkaRelease.named(version).version();
		}
		catch (IllegalStateException ex) {
			return version;
		}
	}

	private static KafkaBroker startTestcontainers() {
		if (System.getProperty(KafkaBrokerSpec.FEATURES_PROPERTY) != null) {
			throw new IllegalArgumentException("-D" + KafkaBrokerSpec.FEATURES_PROPERTY + " applies to the brokers "
					+ "Lockstep formats (in-jvm, process), not to a container, which formats its own storage");
		}
		String version = System.getProperty(KafkaBrokerSpec.VERSION_PROPERTY);
		try {
			return TestcontainersKafkaBroker.start((version != null && !version.isBlank())
					? "apache/kafka:" + imageVersion(version.trim()) : TestcontainersKafkaBroker.IMAGE);
		}
		catch (NoClassDefFoundError ex) {
			throw new IllegalStateException("-D" + BROKER_PROPERTY + "=testcontainers needs "
					+ "org.testcontainers:testcontainers-kafka on the test class path", ex);
		}
	}

}
