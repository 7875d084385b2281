package dev.lockstep.autoconfigure.dev;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

import dev.lockstep.kraft.InterProcessLock;
import dev.lockstep.kraft.KRaftNode;
import dev.lockstep.kraft.KRaftNodeConfig;
import dev.lockstep.kraft.KafkaExitProcedure;

import org.springframework.core.log.LogAccessor;

/**
 * A real single-node KRaft broker inside the application's JVM for development, on a
 * 127.0.0.1 port, keeping its data in a directory so that separate runs from the same
 * directory see the same topics. A second process finding the directory in use fails
 * with a clear message instead of corrupting it.
 */
public final class DevKafkaBroker implements AutoCloseable {

	private static final LogAccessor logger = new LogAccessor(DevKafkaBroker.class);

	private static final String LOCK_FILE = "lockstep-dev-broker.lock";

	private final Path dataDir;

	private final boolean temporary;

	private final InterProcessLock lock;

	private final KRaftNode node;

	private DevKafkaBroker(Path dataDir, boolean temporary, InterProcessLock lock, KRaftNode node) {
		this.dataDir = dataDir;
		this.temporary = temporary;
		this.lock = lock;
		this.node = node;
	}

	/**
	 * Start the broker on a data directory, taking an exclusive lock on it.
	 * @param dataDir the data directory, created when missing
	 * @param temporary whether the directory is deleted when the broker stops
	 * @return the running broker
	 * @throws IllegalStateException when another process uses the directory
	 */
	public static DevKafkaBroker start(Path dataDir, boolean temporary) {
		Path directory = dataDir.toAbsolutePath().normalize();
		InterProcessLock lock = null;
		try {
			Files.createDirectories(directory);
			lock = InterProcessLock.tryLock(directory.resolve(LOCK_FILE));
			if (lock == null) {
				throw new IllegalStateException("The development broker's data directory " + directory
						+ " is in use by another process. Stop that process, or set "
						+ "lockstep.dev.embedded-broker.data-dir to another directory.");
			}
			// A fatal broker error must not end the application's JVM.
			KafkaExitProcedure.throwInstead("Development broker");
			KRaftNode node = KRaftNode.start(KRaftNodeConfig.newCluster(1, directory, Map.of()).get(0));
			logger.info(() -> "Development Kafka broker on " + node.config().bootstrapServer() + ", data in "
					+ directory);
			return new DevKafkaBroker(directory, temporary, lock, node);
		}
		catch (IOException ex) {
			release(lock);
			throw new UncheckedIOException("Could not start the development broker in " + directory, ex);
		}
		catch (RuntimeException ex) {
			release(lock);
			throw ex;
		}
	}

	private static void release(InterProcessLock lock) {
		if (lock != null) {
			lock.close();
		}
	}

	/**
	 * Return the broker's {@code host:port}.
	 * @return the bootstrap servers
	 */
	public String bootstrapServers() {
		return this.node.config().bootstrapServer();
	}

	/**
	 * Return the data directory.
	 * @return the directory
	 */
	public Path dataDirectory() {
		return this.dataDir;
	}

	@Override
	public void close() {
		try {
			this.node.close();
		}
		finally {
			this.lock.close();
			if (this.temporary) {
				deleteRecursively(this.dataDir);
			}
		}
	}

	private static void deleteRecursively(Path root) {
		try (Stream<Path> paths = Files.walk(root)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			logger.warn(ex, () -> "Could not delete " + root);
		}
	}

}
