package dev.lockstep.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.opentest4j.TestAbortedException;

/**
 * A private network this test JVM makes for itself: a veth pair on a /30 of
 * 10.254.0.0/16, its near end in this machine's network namespace with a non-loopback
 * address, its far end in a network namespace of its own. Nothing of it touches the
 * machine's outward interfaces; {@link #close()} removes both. Needs iproute2 and the
 * right to manage network interfaces (root); without them the test is skipped, saying why.
 */
final class PrivateNetwork implements AutoCloseable {

	private final String namespace;

	private final String nearEnd;

	private final String hostAddress;

	private PrivateNetwork(String namespace, String nearEnd, String hostAddress) {
		this.namespace = namespace;
		this.nearEnd = nearEnd;
		this.hostAddress = hostAddress;
	}

	/**
	 * Make the network, or skip the calling test when this machine does not allow it.
	 * @return the network
	 * @throws TestAbortedException when iproute2 is missing or managing interfaces is not
	 * permitted
	 */
	static PrivateNetwork create() {
		// Unique per JVM (interface names are at most 15 characters).
		long id = ProcessHandle.current().pid() % 100_000;
		String namespace = "lockstep-" + id;
		String nearEnd = "lsh" + id;
		String farEnd = "lsn" + id;
		int subnet = (int) (id % 16_384) * 4;
		String prefix = "10.254." + (subnet / 256) + ".";
		String hostAddress = prefix + (subnet % 256 + 1);
		String farAddress = prefix + (subnet % 256 + 2);
		// Left behind by an earlier JVM of the same pid that was killed: gone, or nothing.
		run("ip", "link", "delete", nearEnd);
		run("ip", "netns", "delete", namespace);
		String created = run("ip", "netns", "add", namespace);
		if (created != null) {
			if (created.contains("Operation not permitted") || created.contains("Permission denied")
					|| created.contains("Cannot run program")) {
				throw new TestAbortedException("No private network on this machine (ip netns add: "
						+ created.strip() + "); the test needs iproute2 and root");
			}
			throw new IllegalStateException("ip netns add " + namespace + " failed: " + created);
		}
		PrivateNetwork network = new PrivateNetwork(namespace, nearEnd, hostAddress);
		try {
			require("ip", "link", "add", nearEnd, "type", "veth", "peer", "name", farEnd);
			require("ip", "link", "set", farEnd, "netns", namespace);
			require("ip", "addr", "add", hostAddress + "/30", "dev", nearEnd);
			require("ip", "link", "set", nearEnd, "up");
			require("ip", "-n", namespace, "addr", "add", farAddress + "/30", "dev", farEnd);
			require("ip", "-n", namespace, "link", "set", farEnd, "up");
			return network;
		}
		catch (RuntimeException ex) {
			network.close();
			throw ex;
		}
	}

	/**
	 * Return the near end's address: not loopback, reachable from this machine only.
	 * @return an IPv4 address
	 */
	String hostAddress() {
		return this.hostAddress;
	}

	@Override
	public void close() {
		// Deleting one end of a veth pair deletes both.
		run("ip", "link", "delete", this.nearEnd);
		run("ip", "netns", "delete", this.namespace);
	}

	private static void require(String... command) {
		String failure = run(command);
		if (failure != null) {
			throw new IllegalStateException(String.join(" ", command) + " failed: " + failure);
		}
	}

	/** Run a command; its output when it failed, else {@code null}. */
	private static String run(String... command) {
		try {
			Process process = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true).start();
			// iproute2 answers at once; its output ends when it exits.
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			return (process.waitFor() != 0) ? "exit " + process.exitValue() + ": " + output : null;
		}
		catch (IOException ex) {
			return ex.getMessage();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new UncheckedIOException(new IOException("Interrupted", ex));
		}
	}

}
