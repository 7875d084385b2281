package dev.lockstep.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

import static org.awaitility.Awaitility.await;

/**
 * Apicurio Registry, a registry no one here wrote, run as its own process from the
 * Quarkus app the build unpacks from Maven Central ({@code target/apicurio-registry}):
 * in memory, on 127.0.0.1, its Confluent-compatible API at {@link #url()}. It needs a JDK
 * 21 or newer; without one (or without the unpacked app) the calling test is skipped,
 * saying why.
 */
final class ApicurioRegistry implements AutoCloseable {

	private static final Path APP = Path.of("target", "apicurio-registry", "quarkus-run.jar");

	private static final Pattern LISTENING = Pattern.compile("Listening on: http://127\\.0\\.0\\.1:(\\d+)");

	private final Process process;

	private final Thread reaper;

	private final Path log;

	private final int port;

	private ApicurioRegistry(Process process, Thread reaper, Path log, int port) {
		this.process = process;
		this.reaper = reaper;
		this.log = log;
		this.port = port;
	}

	/**
	 * Start it and wait until its Confluent API answers.
	 * @param dir where its log goes
	 * @return the running registry
	 * @throws IOException when its process cannot be started
	 */
	static ApicurioRegistry start(Path dir) throws IOException {
		Assumptions.assumeTrue(Files.isRegularFile(APP), "Apicurio Registry is not unpacked at " + APP.toAbsolutePath()
				+ " (the autoconfigure module's build unpacks it)");
		Optional<Path> java = javaAtLeast21();
		Assumptions.assumeTrue(java.isPresent(), "Apicurio Registry 3 needs a JDK 21 or newer; none in "
				+ "$LOCKSTEP_TEST_JDK21, java.home or /usr/lib/jvm");
		Path log = dir.resolve("apicurio-registry.log");
		// Port 0: it binds a free port itself and logs which, so no other process can take it first.
		Process process = new ProcessBuilder(java.get().resolve("bin/java").toString(), "-Xmx512m",
				"-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=0", "-Dquarkus.management.enabled=false",
				"-jar", APP.toAbsolutePath().toString())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		// Not left running when the test JVM ends without closing it.
		Thread reaper = new Thread(process::destroyForcibly, "apicurio-registry-reaper");
		Runtime.getRuntime().addShutdownHook(reaper);
		try {
			int port = await().atMost(Duration.ofMinutes(2))
				.pollInterval(Duration.ofMillis(250))
				.failFast("Apicurio Registry exited", () -> !process.isAlive())
				.until(() -> listeningPort(log), (listening) -> listening > 0);
			ApicurioRegistry registry = new ApicurioRegistry(process, reaper, log, port);
			HttpClient http = HttpClient.newHttpClient();
			await().atMost(Duration.ofMinutes(1))
				.pollInterval(Duration.ofMillis(250))
				.ignoreExceptions()
				.until(() -> http.send(HttpRequest.newBuilder(URI.create(registry.url() + "/subjects")).build(),
						HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
			return registry;
		}
		catch (RuntimeException | Error ex) {
			new ApicurioRegistry(process, reaper, log, 0).close();
			throw new IllegalStateException("Apicurio Registry did not start:\n" + logTail(log), ex);
		}
	}

	/** The port its log says it listens on, or 0 before it says. */
	private static int listeningPort(Path log) throws IOException {
		Matcher listening = LISTENING.matcher(Files.readString(log));
		return listening.find() ? Integer.parseInt(listening.group(1)) : 0;
	}

	/**
	 * Return its Confluent-compatible API's base URL.
	 * @return the URL
	 */
	String url() {
		return "http://127.0.0.1:" + this.port + "/apis/ccompat/v7";
	}

	String logTail() {
		return logTail(this.log);
	}

	private static String logTail(Path log) {
		try {
			List<String> lines = Files.readAllLines(log);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() {
		Runtime.getRuntime().removeShutdownHook(this.reaper);
		this.process.destroy();
		try {
			if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static Optional<Path> javaAtLeast21() throws IOException {
		String configured = System.getenv("LOCKSTEP_TEST_JDK21");
		Stream<Path> candidates = Stream.of(Path.of(System.getProperty("java.home")));
		if (configured != null) {
			candidates = Stream.concat(Stream.of(Path.of(configured)), candidates);
		}
		Path jvms = Path.of("/usr/lib/jvm");
		if (Files.isDirectory(jvms)) {
			try (Stream<Path> installed = Files.list(jvms)) {
				candidates = Stream.concat(candidates, installed.sorted().toList().stream());
			}
		}
		return candidates.filter((home) -> featureVersion(home) >= 21).findFirst();
	}

	/** The JDK's feature version from its {@code release} file, or 0. */
	private static int featureVersion(Path home) {
		Path release = home.resolve("release");
		if (!Files.isRegularFile(release) || !Files.isExecutable(home.resolve("bin/java"))) {
			return 0;
		}
		try {
			return Files.readAllLines(release)
				.stream()
				.filter((line) -> line.startsWith("JAVA_VERSION="))
				.map((line) -> line.replaceAll("[^0-9.]", "").split("\\.")[0])
				.map(Integer::parseInt)
				.findFirst()
				.orElse(0);
		}
		catch (IOException | NumberFormatException ex) {
			return 0;
		}
	}

}
