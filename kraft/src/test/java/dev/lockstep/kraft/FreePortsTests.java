package dev.lockstep.kraft;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

// In a thread of its own: a read from a stuck JVM would not end on an interrupt.
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FreePortsTests {

	// Enough that ports chosen by the kernel in two JVMs meet (several in common on Linux).
	private static final int PORTS = 300;

	@Test
	void portsHandedOutInAnotherJvmAreNotHandedOutHereWhileThatJvmLives() throws Exception {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process other = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
				OtherJvm.class.getName(), Integer.toString(PORTS))
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		try {
			Set<Integer> theirs = new HashSet<>();
			BufferedReader lines = new BufferedReader(
					new InputStreamReader(other.getInputStream(), StandardCharsets.US_ASCII));
			while (theirs.size() < PORTS) {
				String line = lines.readLine();
				assertThat(line).as("port %d of the other JVM", theirs.size()).isNotNull();
				if (line.startsWith("port: ")) {
					theirs.add(Integer.parseInt(line.substring(6)));
				}
			}
			List<Integer> ours = IntStream.range(0, PORTS).map((i) -> FreePorts.next()).boxed().toList();
			assertThat(ours).doesNotContainAnyElementsOf(theirs);
		}
		finally {
			other.getOutputStream().close();
			if (!other.waitFor(10, TimeUnit.SECONDS)) {
				other.destroyForcibly();
			}
		}
	}

	@Test
	void portsLieBelowTheRangeTheKernelHandsToBindsOnPortZeroAndToOutgoingConnections() throws IOException {
		Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
		assumeTrue(Files.isReadable(range), "no ephemeral port range to read on this system");
		int firstEphemeral = Integer.parseInt(Files.readAllLines(range).get(0).trim().split("\\s+")[0]);
		assumeTrue(firstEphemeral > 10_000, "the ephemeral range starts at " + firstEphemeral);
		assertThat(IntStream.range(0, 50).map((i) -> FreePorts.next())).allMatch((port) -> port < firstEphemeral);
	}

	@Test
	void eachPortIsFreeWhenHandedOutAndHandedOutOnce() throws IOException {
		Set<Integer> ports = new HashSet<>();
		for (int i = 0; i < PORTS; i++) {
			int port = FreePorts.next();
			assertThat(ports.add(port)).as("port %d handed out again", port).isTrue();
			try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
				assertThat(socket.getLocalPort()).isEqualTo(port);
			}
		}
	}

	/** Hands out ports, one per line, and holds them until its standard input closes. */
	static final class OtherJvm {

		public static void main(String[] args) throws IOException {
			for (int i = 0; i < Integer.parseInt(args[0]); i++) {
				System.out.println("port: " + FreePorts.next());
			}
			System.out.flush();
			while (System.in.read() != -1) {
				// The test never writes; end of stream means it is done.
			}
		}

	}

}
