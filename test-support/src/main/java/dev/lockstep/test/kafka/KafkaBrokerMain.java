package dev.lockstep.test.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import dev.lockstep.kraft.KRaftNode;
import dev.lockstep.kraft.KRaftNodeConfig;

/**
 * Entry point of a broker process started by {@link KafkaBrokerProcess}. It runs the
 * same code as {@link InJvmKafkaBroker}, shuts down cleanly on SIGTERM, and halts when
 * its standard input closes so that a broker never outlives the test JVM that started it.
 */
public final class KafkaBrokerMain {

	private static final String STARTED_MARKER = "lockstep-test-broker started";

	private static final String OVERRIDE = "override:";

	private static final String FEATURE = "feature:";

	private KafkaBrokerMain() {
	}

	/**
	 * Start one KRaft node and wait for it to stop.
	 * @param args node id, broker port, controller port, voters, cluster size, log
	 * directory, cluster id, then {@code override:key=value} broker overrides and
	 * {@code feature:name=level} feature levels
	 */
	public static void main(String[] args) {
		Map<String, String> overrides = new HashMap<>();
		Map<String, Short> features = new HashMap<>();
		for (int i = 7; i < args.length; i++) {
			int colon = args[i].indexOf(':');
			int equals = args[i].indexOf('=');
			String name = args[i].substring(colon + 1, equals);
			String value = args[i].substring(equals + 1);
			if (args[i].startsWith(FEATURE)) {
				features.put(name, Short.parseShort(value));
			}
			else {
				overrides.put(name, value);
			}
		}
		KRaftNodeConfig config = new KRaftNodeConfig(Integer.parseInt(args[0]), Integer.parseInt(args[1]),
				Integer.parseInt(args[2]), args[3], Integer.parseInt(args[4]), Path.of(args[5]), args[6], overrides,
				features);
		watchParent(System.in);
		KRaftNode node = KRaftNode.start(config);
		Runtime.getRuntime().addShutdownHook(new Thread(node::close, "broker-shutdown"));
		System.out.println(STARTED_MARKER);
		System.out.flush();
		node.awaitShutdown();
	}

	static String[] toArgs(KRaftNodeConfig config) {
		String[] fixed = { Integer.toString(config.nodeId()), Integer.toString(config.brokerPort()),
				Integer.toString(config.controllerPort()), config.voters(), Integer.toString(config.clusterSize()),
				config.logDir().toString(), config.clusterId() };
		return Stream
			.of(Arrays.stream(fixed),
					config.overrides().entrySet().stream().map((entry) -> OVERRIDE + entry.getKey() + "=" + entry.getValue()),
					config.features().entrySet().stream().map((entry) -> FEATURE + entry.getKey() + "=" + entry.getValue()))
			.flatMap((args) -> args)
			.toArray(String[]::new);
	}

	private static void watchParent(InputStream parentPipe) {
		Thread watchdog = new Thread(() -> {
			try {
				while (parentPipe.read() != -1) {
					// The parent never writes; end of stream means it has gone.
				}
			}
			catch (IOException ex) {
				// Treated like end of stream.
			}
			Runtime.getRuntime().halt(3);
		}, "parent-watchdog");
		watchdog.setDaemon(true);
		watchdog.start();
	}

}
