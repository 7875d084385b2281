package dev.lockstep.kraft;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.storage.Formatter;

/**
 * The configuration of one combined-mode (broker + controller) KRaft node listening on
 * 127.0.0.1 only, and the formatting of its log directory.
 * <p>
 * Replication settings follow the cluster size: a single node uses replication factor 1
 * for the internal topics (including {@code transaction.state.log.replication.factor=1}
 * and {@code transaction.state.log.min.isr=1}, without which transactions never start);
 * three nodes use replication factor 3 with min ISR 2.
 *
 * @param nodeId the node id, also its voter id
 * @param brokerPort the PLAINTEXT listener port
 * @param controllerPort the CONTROLLER listener port
 * @param voters the quorum voters as {@code id@127.0.0.1:port}, comma-separated
 * @param clusterSize the number of nodes in the cluster
 * @param logDir the node's data directory
 * @param clusterId the cluster id written when the directory is formatted
 * @param overrides broker properties that win over the defaults
 * @param features feature levels the storage is formatted with (such as
 * {@code transaction.version=1}) where the release's defaults should not apply
 */
public record KRaftNodeConfig(int nodeId, int brokerPort, int controllerPort, String voters, int clusterSize,
		Path logDir, String clusterId, Map<String, String> overrides, Map<String, Short> features) {

	/** The name of the controller listener. */
	public static final String CONTROLLER_LISTENER = "CONTROLLER";

	public KRaftNodeConfig {
		overrides = Map.copyOf(overrides);
		features = Map.copyOf(features);
	}

	/**
	 * Create a configuration whose storage gets the release's default feature levels.
	 * @param nodeId the node id, also its voter id
	 * @param brokerPort the PLAINTEXT listener port
	 * @param controllerPort the CONTROLLER listener port
	 * @param voters the quorum voters as {@code id@127.0.0.1:port}, comma-separated
	 * @param clusterSize the number of nodes in the cluster
	 * @param logDir the node's data directory
	 * @param clusterId the cluster id written when the directory is formatted
	 * @param overrides broker properties that win over the defaults
	 */
	public KRaftNodeConfig(int nodeId, int brokerPort, int controllerPort, String voters, int clusterSize,
			Path logDir, String clusterId, Map<String, String> overrides) {
		this(nodeId, brokerPort, controllerPort, voters, clusterSize, logDir, clusterId, overrides, Map.of());
	}

	/**
	 * Configure the nodes of a new cluster, each on fresh ports with a directory under
	 * {@code baseDir}.
	 * @param size the number of nodes
	 * @param baseDir the parent of the nodes' data directories
	 * @param overrides broker properties that win over the defaults
	 * @return one configuration per node, node ids from 1
	 */
	public static List<KRaftNodeConfig> newCluster(int size, Path baseDir, Map<String, String> overrides) {
		return newCluster(size, baseDir, overrides, Map.of());
	}

	/**
	 * Configure the nodes of a new cluster whose storage is formatted with the given
	 * feature levels.
	 * @param size the number of nodes
	 * @param baseDir the parent of the nodes' data directories
	 * @param overrides broker properties that win over the defaults
	 * @param features feature levels the storage is formatted with
	 * @return one configuration per node, node ids from 1
	 */
	public static List<KRaftNodeConfig> newCluster(int size, Path baseDir, Map<String, String> overrides,
			Map<String, Short> features) {
		String clusterId = Uuid.randomUuid().toString();
		int[] brokerPorts = new int[size];
		int[] controllerPorts = new int[size];
		for (int i = 0; i < size; i++) {
			brokerPorts[i] = FreePorts.next();
			controllerPorts[i] = FreePorts.next();
		}
		String voters = IntStream.range(0, size)
			.mapToObj((i) -> (i + 1) + "@127.0.0.1:" + controllerPorts[i])
			.collect(Collectors.joining(","));
		return IntStream.range(0, size)
			.mapToObj((i) -> new KRaftNodeConfig(i + 1, brokerPorts[i], controllerPorts[i], voters, size,
					baseDir.resolve("node-" + (i + 1)), clusterId, overrides, features))
			.toList();
	}

	/**
	 * Return the node's {@code host:port} for clients.
	 * @return the bootstrap server
	 */
	public String bootstrapServer() {
		return "127.0.0.1:" + this.brokerPort;
	}

	/**
	 * Return the node's broker properties.
	 * @return the properties
	 */
	public Properties toProperties() {
		int replication = Math.min(this.clusterSize, 3);
		int minIsr = (replication > 1) ? 2 : 1;
		Properties props = new Properties();
		props.setProperty("process.roles", "broker,controller");
		props.setProperty("node.id", Integer.toString(this.nodeId));
		props.setProperty("controller.quorum.voters", this.voters);
		props.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + this.brokerPort + "," + CONTROLLER_LISTENER
				+ "://127.0.0.1:" + this.controllerPort);
		props.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + this.brokerPort);
		props.setProperty("controller.listener.names", CONTROLLER_LISTENER);
		props.setProperty("inter.broker.listener.name", "PLAINTEXT");
		props.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
		props.setProperty("log.dirs", this.logDir.toString());
		props.setProperty("default.replication.factor", Integer.toString(replication));
		props.setProperty("min.insync.replicas", Integer.toString(minIsr));
		props.setProperty("offsets.topic.replication.factor", Integer.toString(replication));
		props.setProperty("transaction.state.log.replication.factor", Integer.toString(replication));
		props.setProperty("transaction.state.log.min.isr", Integer.toString(minIsr));
		props.setProperty("share.coordinator.state.topic.replication.factor", Integer.toString(replication));
		props.setProperty("share.coordinator.state.topic.min.isr", Integer.toString(minIsr));
		// Fewer internal partitions than production defaults (50) keep start-up fast on two cores.
		props.setProperty("offsets.topic.num.partitions", "5");
		props.setProperty("transaction.state.log.num.partitions", "5");
		props.setProperty("group.initial.rebalance.delay.ms", "0");
		props.setProperty("num.network.threads", "2");
		props.setProperty("num.io.threads", "4");
		props.setProperty("log.cleaner.dedupe.buffer.size", Long.toString(2 * 1024 * 1024));
		this.overrides.forEach(props::setProperty);
		return props;
	}

	/**
	 * Format the log directory unless it already holds this node's data (a restart), with
	 * the configured feature levels over the release's defaults.
	 */
	public void formatStorage() {
		try {
			Files.createDirectories(this.logDir);
			if (Files.exists(this.logDir.resolve("meta.properties"))) {
				return;
			}
			Formatter formatter = new Formatter().setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
				.setNodeId(this.nodeId)
				.setClusterId(this.clusterId)
				.setDirectories(List.of(this.logDir.toString()))
				.setMetadataLogDirectory(this.logDir.toString())
				.setControllerListenerName(CONTROLLER_LISTENER);
			this.features.forEach(formatter::setFeatureLevel);
			formatter.run();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not format KRaft storage in " + this.logDir, ex);
		}
	}

}
