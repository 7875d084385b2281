package dev.lockstep.kraft;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports for listeners that bind some time after the port is chosen: KRaft needs
 * the controller port before the node starts (it is part of the quorum voters), and a
 * restarted broker binds its old ports again.
 * <p>
 * Two things could take such a port in between, and neither does: the kernel hands its
 * ephemeral range to binds on port 0 and to outgoing connections, so ports come from
 * below that range; and another JVM on this machine choosing ports the same way skips
 * those this JVM holds, each held through a lock on a file under the temporary
 * directory until this JVM exits.
 */
public final class FreePorts {

	private static final int LOWEST = 10_000;

	// Linux's default; other systems start theirs higher (49152).
	private static final int DEFAULT_FIRST_EPHEMERAL = 32_768;

	private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

	private static final Path LOCKS = Path.of(System.getProperty("java.io.tmpdir"),
			"lockstep-ports-" + System.getProperty("user.name"));

	private static final int ATTEMPTS = 1_000;

	// Every port this JVM has tried, with its lock (null where none could be had): a lock
	// whose channel became unreachable would be released.
	private static final Map<Integer, FileLock> held = new HashMap<>();

	private FreePorts() {
	}

	/**
	 * Return a loopback port that is free, that this JVM has not handed out before and
	 * that no other JVM holds through this class.
	 * @return the port
	 */
	public static synchronized int next() {
		int end = firstEphemeralPort();
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			int port = (end - LOWEST >= ATTEMPTS) ? ThreadLocalRandom.current().nextInt(LOWEST, end) : kernelsChoice();
			if (!held.containsKey(port) && hold(port) && isFree(port)) {
				return port;
			}
		}
		throw new IllegalStateException("Could not find a free loopback port in " + ATTEMPTS + " attempts");
	}

	// Whether this JVM may hand the port out: it now holds the port's lock (kept, even when
	// the port turns out to be in use, so that it is not tried again), or no lock can be
	// had here at all (a read-only temporary directory: nothing is shared to respect).
	private static boolean hold(int port) {
		FileChannel channel = null;
		try {
			Files.createDirectories(LOCKS);
			channel = FileChannel.open(LOCKS.resolve(port + ".lock"), StandardOpenOption.CREATE,
					StandardOpenOption.WRITE);
			FileLock lock = channel.tryLock();
			if (lock == null) {
				channel.close();
				return false;
			}
			held.put(port, lock);
			return true;
		}
		catch (OverlappingFileLockException ex) {
			close(channel);
			return false;
		}
		catch (IOException ex) {
			close(channel);
			held.put(port, null);
			return true;
		}
	}

	private static void close(FileChannel channel) {
		try {
			if (channel != null) {
				channel.close();
			}
		}
		catch (IOException ex) {
			// Nothing was held through it.
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

	private static int kernelsChoice() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not find a free loopback port", ex);
		}
	}

	private static int firstEphemeralPort() {
		try {
			List<String> lines = Files.readAllLines(EPHEMERAL_RANGE);
			return Integer.parseInt(lines.get(0).trim().split("\\s+")[0]);
		}
		catch (IOException | RuntimeException ex) {
			return DEFAULT_FIRST_EPHEMERAL;
		}
	}

}
