package dev.lockstep.kraft;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports for listeners that bind some time after the port is chosen: KRaft needs
 * the controller port before the node starts (it is part of the quorum voters), and a
 * restarted broker binds its old ports again.
 * <p>
 * Ports come from below the kernel's ephemeral range, which it hands to binds on port 0
 * and to outgoing connections, so neither takes one in between. Another JVM of the same
 * user choosing ports here skips those this JVM holds: each is held through an
 * {@link InterProcessLock} on a file in {@code ${java.io.tmpdir}/lockstep-ports-<user>}
 * until this JVM exits. Where that directory cannot be written, ports are not held (a
 * warning says so); where the range leaves fewer than 1,000 ports below it, the kernel
 * chooses.
 */
public final class FreePorts {

	// Before LOCKS, whose initialiser may warn.
	private static final System.Logger logger = System.getLogger(FreePorts.class.getName());

	// Above the ports services are commonly set to listen on (8080, 9092 and the like).
	private static final int LOWEST = 10_000;

	// With fewer ports than this below the ephemeral range, the kernel chooses.
	private static final int SMALLEST_RANGE = 1_000;

	private static final int ATTEMPTS = 1_000;

	private static final int FIRST_EPHEMERAL = firstEphemeralPort();

	private static final Path LOCKS = lockDirectory();

	// Every port this JVM holds, with its lock (kept reachable: a collected one is released).
	private static final Map<Integer, InterProcessLock> held = new HashMap<>();

	private FreePorts() {
	}

	/**
	 * Return a loopback port that is free, that this JVM has not handed out before and
	 * that no other JVM holds through this class.
	 * @return the port
	 */
	public static synchronized int next() {
		IOException lastFailure = null;
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			try {
				int port = candidate();
				if (!held.containsKey(port) && hold(port)) {
					if (isFree(port)) {
						return port;
					}
					release(port);
				}
			}
			catch (IOException ex) {
				lastFailure = ex;
			}
		}
		throw new IllegalStateException("Could not find a free loopback port in " + ATTEMPTS + " attempts",
				lastFailure);
	}

	private static int candidate() throws IOException {
		if (FIRST_EPHEMERAL - LOWEST >= SMALLEST_RANGE) {
			return ThreadLocalRandom.current().nextInt(LOWEST, FIRST_EPHEMERAL);
		}
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	// Whether this JVM now holds the port (without a lock where none can be had).
	private static boolean hold(int port) throws IOException {
		InterProcessLock lock = null;
		if (LOCKS != null) {
			// Made again should a cleaner of the temporary directory have removed it.
			Files.createDirectories(LOCKS);
			lock = InterProcessLock.tryLock(LOCKS.resolve(port + ".lock"));
			if (lock == null) {
				return false;
			}
		}
		held.put(port, lock);
		return true;
	}

	private static void release(int port) {
		InterProcessLock lock = held.remove(port);
		if (lock != null) {
			lock.close();
		}
	}

	private static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static int firstEphemeralPort() {
		try {
			String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0);
			return Integer.parseInt(range.trim().split("\\s+")[0]);
		}
		catch (IOException | RuntimeException ex) {
			// Linux's default; macOS and Windows start theirs higher (49152).
			return 32_768;
		}
	}

	private static Path lockDirectory() {
		String directory = System.getProperty("java.io.tmpdir") + "/lockstep-ports-"
				+ System.getProperty("user.name");
		try {
			Path path = Files.createDirectories(Path.of(directory));
			if (Files.isWritable(path)) {
				return path;
			}
		}
		catch (IOException | RuntimeException ex) {
			// Told below.
		}
		logger.log(System.Logger.Level.WARNING, () -> "Cannot write to " + directory
				+ ": ports chosen for listeners are not held against other JVMs");
		return null;
	}

}
