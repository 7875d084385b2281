package dev.lockstep.test.kafka;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.lockstep.kraft.KRaftNodeConfig;

/**
 * A KRaft cluster of several combined broker/controller nodes, each a separate OS
 * process that a test can kill and restart. Three nodes run with replication factor 3
 * and min ISR 2 for every topic, including the offsets and transaction state topics, so
 * the cluster keeps accepting transactional writes with one node down.
 */
public final class KafkaClusterProcesses implements KafkaBroker {

	private final Path baseDir;

	private final List<KafkaBrokerProcess> nodes;

	private KafkaClusterProcesses(Path baseDir, List<KafkaBrokerProcess> nodes) {
		this.baseDir = baseDir;
		this.nodes = nodes;
	}

	/**
	 * Start a three-node cluster on free 127.0.0.1 ports and wait until every node
	 * serves requests.
	 * @return the running cluster
	 */
	public static KafkaClusterProcesses startThreeNodes() {
		return start(3, KafkaBrokerSpec.defaults());
	}

	/**
	 * Start a cluster and wait until every node serves requests.
	 * @param size the number of nodes
	 * @param overrides broker properties that win over the test defaults
	 * @param jvmOptions options of each node's JVM
	 * @return the running cluster
	 */
	public static KafkaClusterProcesses start(int size, Map<String, String> overrides, List<String> jvmOptions) {
		return start(size, KafkaBrokerSpec.defaults().withOverrides(overrides).withJvmOptions(jvmOptions));
	}

	/**
	 * Start a cluster and wait until every node serves requests.
	 * @param size the number of nodes
	 * @param spec the release, features, broker properties and JVM options of every node
	 * @return the running cluster
	 */
	public static KafkaClusterProcesses start(int size, KafkaBrokerSpec spec) {
		Path baseDir = Directories.createTemp("lockstep-kafka-cluster-");
		List<KafkaBrokerProcess> nodes = KRaftNodeConfig.newCluster(size, baseDir, spec.overrides(), spec.features())
			.stream()
			.map((config) -> new KafkaBrokerProcess(config, spec, null))
			.toList();
		KafkaClusterProcesses cluster = new KafkaClusterProcesses(baseDir, nodes);
		try {
			launchTogether(nodes, size);
			return cluster;
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	/**
	 * Return one node, to kill, pause or restart it.
	 * @param nodeId the node id, from 1
	 * @return the node
	 */
	public KafkaBrokerProcess node(int nodeId) {
		return this.nodes.get(nodeId - 1);
	}

	/**
	 * Kill nodes with SIGKILL as a power cut would: every one is signalled before any is
	 * waited for.
	 * @param crashed the nodes to kill
	 */
	public void kill(List<KafkaBrokerProcess> crashed) {
		crashed.forEach(KafkaBrokerProcess::signalKill);
		crashed.forEach(KafkaBrokerProcess::kill);
	}

	/**
	 * Start nodes together again after they were killed or stopped, on the same ports with
	 * the same data, and wait until each serves requests.
	 * @param stopped the nodes to start
	 */
	public void restart(List<KafkaBrokerProcess> stopped) {
		for (KafkaBrokerProcess node : stopped) {
			if (node.isAlive()) {
				throw new IllegalStateException("Node " + node.nodeId() + " is still running");
			}
		}
		launchTogether(stopped, 1);
	}

	// All voters must be up before any of them can elect a controller: none is waited for
	// before every one is launched.
	private static void launchTogether(List<KafkaBrokerProcess> nodes, int expectedNodes) {
		nodes.forEach(KafkaBrokerProcess::launch);
		nodes.forEach((node) -> node.awaitReady(expectedNodes));
	}

	/**
	 * Return every node of the cluster.
	 * @return the nodes, in node id order
	 */
	public List<KafkaBrokerProcess> nodes() {
		return this.nodes;
	}

	@Override
	public String bootstrapServers() {
		return this.nodes.stream().map(KafkaBrokerProcess::bootstrapServers).collect(Collectors.joining(","));
	}

	@Override
	public String description() {
		return this.nodes.size() + "-node KRaft cluster " + bootstrapServers();
	}

	@Override
	public void close() {
		try {
			this.nodes.forEach(KafkaBrokerProcess::resume);
			this.nodes.parallelStream().forEach(KafkaBrokerProcess::stop);
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
