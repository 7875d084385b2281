package dev.lockstep.test.kafka;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import dev.lockstep.kraft.KRaftNodeConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;

/**
 * One KRaft node running as a separate OS process, so that a test can SIGKILL, SIGSTOP,
 * SIGCONT and restart it. It runs the Kafka release its {@link KafkaBrokerSpec} names:
 * the jars on this JVM's class path, or another release's (such as Kafka 3.9). The node
 * keeps its ports and data directory across restarts.
 */
public final class KafkaBrokerProcess implements KafkaBroker {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

	/** JVM options of a broker process unless others are given. */
	public static final List<String> DEFAULT_JVM_OPTIONS = KafkaBrokerSpec.DEFAULT_JVM_OPTIONS;

	private final KRaftNodeConfig config;

	private final KafkaBrokerSpec spec;

	// The directory this object deletes on close; null when a cluster owns it.
	private final Path ownedDir;

	private Process process;

	private boolean paused;

	KafkaBrokerProcess(KRaftNodeConfig config, KafkaBrokerSpec spec, Path ownedDir) {
		this.config = config;
		this.spec = spec;
		this.ownedDir = ownedDir;
	}

	/**
	 * Start a single-node broker process of the release on this JVM's class path on
	 * free 127.0.0.1 ports.
	 * @return the running broker process
	 */
	public static KafkaBrokerProcess start() {
		return start(KafkaBrokerSpec.defaults());
	}

	/**
	 * Start a single-node broker process on free 127.0.0.1 ports.
	 * @param overrides broker properties that win over the test defaults
	 * @param jvmOptions options of the broker's JVM, such as its heap size
	 * @return the running broker process
	 */
	public static KafkaBrokerProcess start(Map<String, String> overrides, List<String> jvmOptions) {
		return start(KafkaBrokerSpec.defaults().withOverrides(overrides).withJvmOptions(jvmOptions));
	}

	/**
	 * Start a single-node broker process on free 127.0.0.1 ports.
	 * @param spec the release, features, broker properties and JVM options
	 * @return the running broker process
	 */
	public static KafkaBrokerProcess start(KafkaBrokerSpec spec) {
		Path baseDir = Directories.createTemp("lockstep-kafka-process-");
		KRaftNodeConfig config = KRaftNodeConfig.newCluster(1, baseDir, spec.overrides(), spec.features()).get(0);
		KafkaBrokerProcess broker = new KafkaBrokerProcess(config, spec, baseDir);
		try {
			broker.launch();
			broker.awaitReady(1);
			return broker;
		}
		catch (RuntimeException ex) {
			broker.close();
			throw ex;
		}
	}

	/**
	 * Start the process again after {@link #kill()} or {@link #stop()}, on the same ports
	 * with the same data, and wait until it serves requests.
	 */
	public synchronized void restart() {
		if (isAlive()) {
			throw new IllegalStateException("Node " + this.config.nodeId() + " is still running");
		}
		launch();
		awaitReady(1);
	}

	/**
	 * Kill the process with SIGKILL and wait for it to be gone: no shutdown hook runs,
	 * nothing is flushed, as in a crash.
	 */
	public synchronized void kill() {
		signalKill();
		if (this.process != null) {
			awaitExit();
		}
		this.paused = false;
	}

	/** Send SIGKILL without waiting for the process to be gone. */
	synchronized void signalKill() {
		if (this.process != null) {
			this.process.destroyForcibly();
		}
	}

	/**
	 * Stop the process gracefully (SIGTERM), killing it if it does not stop in time.
	 */
	public synchronized void stop() {
		if (isAlive()) {
			resume();
			this.process.destroy();
			try {
				if (!this.process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
					kill();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				kill();
			}
		}
	}

	/**
	 * Freeze the process with SIGSTOP: its sockets stay open but nothing answers.
	 */
	public synchronized void pause() {
		signal("STOP");
		this.paused = true;
	}

	/**
	 * Let a paused process run again with SIGCONT.
	 */
	public synchronized void resume() {
		if (this.paused) {
			signal("CONT");
			this.paused = false;
		}
	}

	/**
	 * Return whether the process is running (a paused process is running).
	 * @return whether the process is alive
	 */
	public synchronized boolean isAlive() {
		return this.process != null && this.process.isAlive();
	}

	/**
	 * Return the operating system's id of the current process.
	 * @return the pid
	 */
	public synchronized long pid() {
		if (this.process == null) {
			throw new IllegalStateException("Node " + this.config.nodeId() + " was never started");
		}
		return this.process.pid();
	}

	/**
	 * Return the node id of this broker in its cluster.
	 * @return the node id
	 */
	public int nodeId() {
		return this.config.nodeId();
	}

	/**
	 * Return the file that receives the process's standard output and error.
	 * @return the log file
	 */
	public Path logFile() {
		return this.config.logDir().resolveSibling("node-" + this.config.nodeId() + ".log");
	}

	/**
	 * Describe the process for a failure message: whether it runs, and the last lines of
	 * its log.
	 * @param lines how many lines at most
	 * @return the description
	 */
	public String logTail(int lines) {
		List<String> log;
		try {
			log = Files.exists(logFile()) ? Files.readAllLines(logFile()) : List.of();
		}
		catch (IOException ex) {
			log = List.of("(log unreadable: " + ex + ")");
		}
		return "--- " + description() + (isAlive() ? "" : " (not running)") + ", last "
				+ Math.min(lines, log.size()) + " lines of its log ---\n"
				+ String.join("\n", log.subList(Math.max(0, log.size() - lines), log.size()));
	}

	@Override
	public String bootstrapServers() {
		return this.config.bootstrapServer();
	}

	@Override
	public String description() {
		return "KRaft broker process " + bootstrapServers() + " (node " + nodeId() + ", " + this.spec.describe() + ")";
	}

	@Override
	public void close() {
		try {
			stop();
		}
		finally {
			if (this.ownedDir != null) {
				Directories.deleteRecursively(this.ownedDir);
			}
		}
	}

	@Override
	public String toString() {
		return description();
	}

	synchronized void launch() {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(this.spec.jvmOptions());
		command.add("-cp");
		command.add(this.spec.release().processClassPath());
		command.add(KafkaBrokerMain.class.getName());
		command.addAll(List.of(KafkaBrokerMain.toArgs(this.config)));
		try {
			Files.createDirectories(this.config.logDir().getParent());
			File log = logFile().toFile();
			// stdin stays a pipe that this JVM holds open: the broker halts when it closes.
			this.process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log))
				.start();
			ProcessReaper.register(this.process);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start " + description(), ex);
		}
	}

	/**
	 * Wait until this node answers and reports at least {@code expectedNodes} live nodes.
	 */
	void awaitReady(int expectedNodes) {
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		Properties props = new Properties();
		props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
		props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
		props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
		try (Admin admin = Admin.create(props)) {
			while (true) {
				if (!isAlive()) {
					throw new IllegalStateException(description() + " exited during start-up; see " + logFile());
				}
				try {
					List<Integer> ids = admin.describeCluster().nodes().get().stream().map(Node::id).toList();
					if (ids.contains(nodeId()) && ids.size() >= expectedNodes) {
						return;
					}
				}
				catch (Exception ex) {
					// Not ready yet: the listener is not up or metadata is not complete.
				}
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException(
							description() + " not ready after " + START_TIMEOUT + "; see " + logFile());
				}
				try {
					Thread.sleep(100);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("Interrupted while waiting for " + description(), ex);
				}
			}
		}
	}

	private void awaitExit() {
		try {
			if (!this.process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException(description() + " did not exit after SIGKILL");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for " + description() + " to exit", ex);
		}
	}

	private void signal(String signal) {
		if (!isAlive()) {
			throw new IllegalStateException(description() + " is not running");
		}
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(this.process.pid())).start();
			if (kill.waitFor() != 0) {
				throw new IllegalStateException("kill -" + signal + " failed for " + description());
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
