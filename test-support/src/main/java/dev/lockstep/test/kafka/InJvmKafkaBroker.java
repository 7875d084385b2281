package dev.lockstep.test.kafka;

import java.nio.file.Path;
import java.util.Map;

import dev.lockstep.kraft.KRaftNode;
import dev.lockstep.kraft.KRaftNodeConfig;
import dev.lockstep.kraft.KafkaExitProcedure;

/**
 * A single-node KRaft broker (combined broker and controller) running inside this JVM,
 * built from Kafka's own server classes. Its data lives in a temporary directory that
 * {@link #close()} removes.
 */
public final class InJvmKafkaBroker implements KafkaBroker {

	private final Path baseDir;

	private final String bootstrapServers;

	private final KRaftNode node;

	private InJvmKafkaBroker(Path baseDir, KRaftNodeConfig config, String bootstrapServers) {
		this.baseDir = baseDir;
		this.bootstrapServers = bootstrapServers;
		this.node = KRaftNode.start(config);
	}

	/**
	 * Start a single-node broker on free 127.0.0.1 ports.
	 * @return the running broker
	 */
	public static InJvmKafkaBroker start() {
		return start(Map.of());
	}

	/**
	 * Start a single-node broker on free 127.0.0.1 ports.
	 * @param overrides broker properties that win over the test defaults
	 * @return the running broker
	 */
	public static InJvmKafkaBroker start(Map<String, String> overrides) {
		return start(KafkaBrokerSpec.defaults().withOverrides(overrides));
	}

	/**
	 * Start a single-node broker on free 127.0.0.1 ports.
	 * @param spec the features and broker properties (JVM options do not apply here)
	 * @return the running broker
	 * @throws IllegalArgumentException when the spec names a release other than the one
	 * on this JVM's class path: use {@link KafkaBrokerProcess} for that
	 */
	public static InJvmKafkaBroker start(KafkaBrokerSpec spec) {
		if (!spec.release().isCurrent()) {
			throw new IllegalArgumentException(spec.release() + " cannot run in this JVM, which holds Kafka "
					+ KafkaRelease.current().version() + "'s classes; start a KafkaBrokerProcess of it instead");
		}
		// A broker that hits a fatal error asks to end the JVM: in a test JVM that must fail
		// the test, not end the JVM.
		KafkaExitProcedure.throwInstead("Test broker");
		Path baseDir = Directories.createTemp("lockstep-kafka-");
		try {
			KRaftNodeConfig config = KRaftNodeConfig.newCluster(1, baseDir, spec.overrides(), spec.features()).get(0);
			return new InJvmKafkaBroker(baseDir, config, config.bootstrapServer());
		}
		catch (RuntimeException ex) {
			Directories.deleteRecursively(baseDir);
			throw ex;
		}
	}

	/**
	 * Start a single-node broker whose plaintext client listener is bound to, and
	 * advertises, another address than 127.0.0.1 (a private test network's); its controller
	 * stays on 127.0.0.1.
	 * @param address the listener's IP address
	 * @return the running broker
	 */
	public static InJvmKafkaBroker startListeningOn(String address) {
		KafkaExitProcedure.throwInstead("Test broker");
		Path baseDir = Directories.createTemp("lockstep-kafka-");
		try {
			KRaftNodeConfig loopback = KRaftNodeConfig.newCluster(1, baseDir, Map.of()).get(0);
			String listener = "PLAINTEXT://" + address + ":" + loopback.brokerPort();
			KRaftNodeConfig config = new KRaftNodeConfig(loopback.nodeId(), loopback.brokerPort(),
					loopback.controllerPort(), loopback.voters(), loopback.clusterSize(), loopback.logDir(),
					loopback.clusterId(),
					Map.of("listeners", listener + "," + KRaftNodeConfig.CONTROLLER_LISTENER + "://127.0.0.1:"
							+ loopback.controllerPort(), "advertised.listeners", listener));
			return new InJvmKafkaBroker(baseDir, config, address + ":" + loopback.brokerPort());
		}
		catch (RuntimeException ex) {
			Directories.deleteRecursively(baseDir);
			throw ex;
		}
	}

	@Override
	public String bootstrapServers() {
		return this.bootstrapServers;
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
			this.node.close();
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
