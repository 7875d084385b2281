package dev.lockstep.test.kafka;

/**
 * A real Kafka cluster that a test talks to through {@link #bootstrapServers()}.
 * <p>
 * Closing it stops whatever this object started (a broker in the JVM, broker
 * processes, a container) and removes their data; an external cluster is left alone.
 */
public interface KafkaBroker extends AutoCloseable {

	/**
	 * Return the {@code bootstrap.servers} value that reaches this cluster.
	 * @return a comma-separated list of {@code host:port}
	 */
	String bootstrapServers();

	/**
	 * Return a short description for logs and test reports, such as
	 * {@code "in-JVM KRaft broker 127.0.0.1:40123"}.
	 * @return the description
	 */
	String description();

	/**
	 * Stop what this object started and delete its data directories.
	 */
	@Override
	void close();

}
