package dev.lockstep.kraft;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * Ephemeral loopback ports for broker and controller listeners. KRaft needs the
 * controller port before the node starts (it is part of the quorum voters), so ports
 * are chosen up front rather than letting the broker bind port 0.
 */
public final class FreePorts {

	// A port handed out once is not handed out again by this JVM, even after it is closed.
	private static final Set<Integer> handedOut = new HashSet<>();

	private FreePorts() {
	}

	/**
	 * Return a loopback port that was free a moment ago and not handed out before.
	 * @return the port
	 */
	public static synchronized int next() {
		for (int attempt = 0; attempt < 100; attempt++) {
			try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
				int port = socket.getLocalPort();
				if (handedOut.add(port)) {
					return port;
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Could not find a free loopback port", ex);
			}
		}
		throw new IllegalStateException("Could not find a free loopback port in 100 attempts");
	}

}
