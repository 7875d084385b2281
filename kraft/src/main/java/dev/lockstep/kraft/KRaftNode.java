package dev.lockstep.kraft;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;

/**
 * One KRaft node (combined broker and controller) running in this JVM, built from
 * Kafka's own server classes.
 */
public final class KRaftNode implements AutoCloseable {

	private final KRaftNodeConfig config;

	private final KafkaRaftServer server;

	private KRaftNode(KRaftNodeConfig config, KafkaRaftServer server) {
		this.config = config;
		this.server = server;
	}

	/**
	 * Format the node's storage when needed and start it.
	 * @param config the node's configuration
	 * @return the running node
	 */
	public static KRaftNode start(KRaftNodeConfig config) {
		config.formatStorage();
		KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(config.toProperties(), false), Time.SYSTEM);
		server.startup();
		return new KRaftNode(config, server);
	}

	/**
	 * Return the node's configuration.
	 * @return the configuration
	 */
	public KRaftNodeConfig config() {
		return this.config;
	}

	/**
	 * Block until the node has shut down.
	 */
	public void awaitShutdown() {
		this.server.awaitShutdown();
	}

	/**
	 * Shut the node down and wait for it.
	 */
	@Override
	public void close() {
		this.server.shutdown();
		this.server.awaitShutdown();
	}

}
