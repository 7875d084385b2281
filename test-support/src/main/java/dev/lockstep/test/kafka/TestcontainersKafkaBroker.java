package dev.lockstep.test.kafka;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * Kafka's own {@code apache/kafka} image run by Testcontainers, configured like the
 * in-JVM broker for transactions on a single node. Needs a Docker engine and
 * {@code org.testcontainers:testcontainers-kafka} on the class path.
 */
public final class TestcontainersKafkaBroker implements KafkaBroker {

	/** The image, matching the kafka-clients version Lockstep is built against. */
	public static final String IMAGE = "apache/kafka:4.1.2";

	private final KafkaContainer container;

	private final String image;

	private TestcontainersKafkaBroker(KafkaContainer container, String image) {
		this.container = container;
		this.image = image;
	}

	/**
	 * Return whether Testcontainers finds a usable Docker engine.
	 * @return whether a container can be started
	 */
	public static boolean isDockerAvailable() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/**
	 * Start the container and wait until the broker accepts connections.
	 * @return the running broker
	 * @throws IllegalStateException when no Docker engine is available
	 */
	public static TestcontainersKafkaBroker start() {
		return start(IMAGE);
	}

	/**
	 * Start a container of another {@code apache/kafka} image and wait until the broker
	 * accepts connections.
	 * @param image the image, such as {@code apache/kafka:3.9.1}
	 * @return the running broker
	 * @throws IllegalStateException when no Docker engine is available
	 */
	public static TestcontainersKafkaBroker start(String image) {
		if (!isDockerAvailable()) {
			throw new IllegalStateException("A Testcontainers Kafka broker was asked for (-D" + TestBrokers.BROKER_PROPERTY
					+ "=testcontainers) but no Docker engine is available to Testcontainers. Start Docker, or drop the"
					+ " property to use Kafka's own KRaft broker inside the test JVM.");
		}
		KafkaContainer container = new KafkaContainer(image)
			.withEnv("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
			.withEnv("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1")
			.withEnv("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1")
			.withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
		container.start();
		return new TestcontainersKafkaBroker(container, image);
	}

	@Override
	public String bootstrapServers() {
		return this.container.getBootstrapServers();
	}

	@Override
	public String description() {
		return "Testcontainers " + this.image + " " + bootstrapServers();
	}

	@Override
	public void close() {
		this.container.stop();
	}

	@Override
	public String toString() {
		return description();
	}

}
