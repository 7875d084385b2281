package dev.lockstep.test.kafka;

import java.nio.file.Path;
import java.util.Map;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.common.utils.Time;

/**
 * A single-node KRaft broker (combined broker and controller) running inside this JVM,
 * built from Kafka's own server classes. Its data lives in a temporary directory that
 * {@link #close()} removes.
 */
public final class InJvmKafkaBroker implements KafkaBroker {

	private final Path baseDir;

	private final KRaftNodeConfig config;

	private final KafkaRaftServer server;

	private InJvmKafkaBroker(Path baseDir, KRaftNodeConfig config) {
		this.baseDir = baseDir;
		this.config = config;
		this.server = startNode(config);
	}

	/**
	 * Start a single-node broker on ephemeral 127.0.0.1 ports.
	 * @return the running broker
	 */
	public static InJvmKafkaBroker start() {
		return start(Map.of());
	}

	/**
	 * Start a single-node broker on ephemeral 127.0.0.1 ports.
	 * @param overrides broker properties that win over the test defaults
	 * @return the running broker
	 */
	public static InJvmKafkaBroker start(Map<String, String> overrides) {
		// A broker that hits a fatal error calls Exit.exit: in a test JVM that must fail the
		// test, not end the JVM.
		Exit.setExitProcedure((status, message) -> {
			throw new IllegalStateException("Kafka asked to exit the JVM with status " + status + ": " + message);
		});
		Path baseDir = Directories.createTemp("lockstep-kafka-");
		KRaftNodeConfig config = KRaftNodeConfig.newCluster(1, baseDir, overrides).get(0);
		try {
			return new InJvmKafkaBroker(baseDir, config);
		}
		catch (RuntimeException ex) {
			Directories.deleteRecursively(baseDir);
			throw ex;
		}
	}

	/**
	 * Format the node's storage when needed and start it. Shared with
	 * {@link KafkaBrokerMain} so that a broker process runs exactly this code.
	 */
	static KafkaRaftServer startNode(KRaftNodeConfig config) {
		config.formatStorage();
		KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(config.toProperties(), false),
				Time.SYSTEM);
		server.startup();
		return server;
	}

	@Override
	public String bootstrapServers() {
		return this.config.bootstrapServer();
	}

	/**
	 * Return the temporary directory holding the broker's data, removed on close.
	 * @return the data directory
	 */
	public Path dataDirectory() {
		return this.baseDir;
	}

	@Override
	public String description() {
		return "in-JVM KRaft broker " + bootstrapServers();
	}

	@Override
	public void close() {
		try {
			this.server.shutdown();
			this.server.awaitShutdown();
		}
		finally {
			Directories.deleteRecursively(this.baseDir);
		}
	}

	@Override
	public String toString() {
		return description();
	}

}
