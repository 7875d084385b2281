package dev.lockstep.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.core.ConditionFactory;
import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * The sample app's executable jar run as a separate OS process, the way an operator runs
 * it, so that end-to-end tests can read its output and exit code, kill, pause and resume
 * it. Every end-to-end wait goes through {@link #awaitUntil} or {@link #awaitHolding}:
 * condition-based, tolerant of a slow machine, and failing with the tail of the worker
 * processes' logs so that a failure in CI explains itself.
 */
final class SampleAppProcess {

	// What decides a process's instance identity (and Spring Boot's cloud platform).
	private static final List<String> PLATFORM_VARIABLES = List.of("LOCKSTEP_INSTANCE_ID", "HOSTNAME",
			"KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT");

	/** What a Kubernetes pod's environment tells a process about its platform. */
	static final Map<String, String> KUBERNETES = Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1",
			"KUBERNETES_SERVICE_PORT", "443");

	/** Lines of a worker's log a failed wait shows. */
	static final int LOG_TAIL_LINES = 80;

	// Awaitility's default: a slower poll lets a fast worker run far past a kill target
	// (seen: the kill storm's kills all landing after the input was done).
	private static final Duration POLL_INTERVAL = Duration.ofMillis(100);

	// The C1 compiler alone: each process lives seconds to minutes, and these tests check
	// what is committed, not how fast.
	private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC",
			"-XX:TieredStopAtLevel=1");

	private final Process process;

	private final Path output;

	private SampleAppProcess(Process process, Path output) {
		this.process = process;
		this.output = output;
	}

	static SampleAppProcess start(Path workDir, String... args) {
		return start(workDir, Map.of(), args);
	}

	/**
	 * Start the sample jar with environment variables beside this JVM's, as a container
	 * platform sets {@code HOSTNAME} per pod.
	 */
	static SampleAppProcess start(Path workDir, Map<String, String> environment, String... args) {
		return start(KafkaClients.KAFKA_41, workDir, environment, args);
	}

	/**
	 * Start the sample app built on the given Kafka client line, extracted and on its
	 * class-data-sharing archive as Spring Boot recommends running a service
	 * ({@link ExtractedSampleApp}).
	 */
	static SampleAppProcess start(KafkaClients clients, Path workDir, Map<String, String> environment,
			String... args) {
		return start(ExtractedSampleApp.of(clients).launch(), workDir, environment, args);
	}

	/**
	 * Start the executable jar itself, {@code java -jar} as the README has a newcomer run
	 * it.
	 */
	static SampleAppProcess startJar(KafkaClients clients, Path workDir, Map<String, String> environment,
			String... args) {
		return start(List.of("-jar", clients.jar().toAbsolutePath().toString()), workDir, environment, args);
	}

	private static SampleAppProcess start(List<String> launch, Path workDir, Map<String, String> environment,
			String... args) {
		List<String> command = jvm();
		command.addAll(launch);
		command.addAll(List.of(args));
		try {
			Path output = Files.createTempFile(workDir, "sample-app-", ".log");
			ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
				.redirectErrorStream(true)
				.redirectOutput(output.toFile());
			// The identity and platform a scenario gives, not this machine's.
			builder.environment().keySet().removeAll(PLATFORM_VARIABLES);
			builder.environment().putAll(environment);
			Process process = builder.start();
			return new SampleAppProcess(process, output);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Return the start of a sample process's command line: this JVM's runtime's
	 * {@code java} launcher and the options every sample process runs with.
	 * @return a new list, for the caller to go on with
	 */
	static List<String> jvm() {
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
			.toString()));
		command.addAll(JVM_OPTIONS);
		return command;
	}

	int awaitExit(Duration timeout) throws InterruptedException {
		if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			this.process.destroyForcibly().waitFor();
			throw new IllegalStateException("Sample app did not exit within " + timeout + "\n" + logTail());
		}
		return this.process.exitValue();
	}

	/**
	 * Kill the process with SIGKILL, as a crash would, and wait for it to be gone.
	 */
	void kill() throws InterruptedException {
		this.process.destroyForcibly().waitFor();
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	long pid() {
		return this.process.pid();
	}

	/**
	 * Freeze the process (SIGSTOP), as a long GC pause, a frozen VM or a descheduled
	 * container would: its sockets stay open, it does nothing until {@link #resume()}.
	 */
	void suspend() {
		signal("STOP");
	}

	/**
	 * Let a {@link #suspend() suspended} process run again (SIGCONT); nothing when it has
	 * exited.
	 */
	void resume() {
		if (!this.process.isAlive()) {
			return;
		}
		signal("CONT");
	}

	private void signal(String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(this.process.pid())).start();
			if (kill.waitFor() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + this.process.pid() + " failed");
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

	/**
	 * Stop the process as a platform does (SIGTERM, a graceful Spring shutdown) and wait
	 * for its exit within the grace period; past it, kill it (SIGKILL) as the platform would.
	 * @param gracePeriod how long the process may take to exit
	 * @return the exit code, or -1 when the process had to be killed
	 */
	int terminate(Duration gracePeriod) throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(gracePeriod.toMillis(), TimeUnit.MILLISECONDS)) {
			this.process.destroyForcibly().waitFor();
			return -1;
		}
		return this.process.exitValue();
	}

	/**
	 * Stop the process (SIGTERM: a graceful Spring shutdown) and wait for it.
	 */
	void stop(Duration timeout) throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			this.process.destroyForcibly().waitFor();
		}
	}

	/**
	 * Return the resident set size of the process, from {@code /proc} (Linux).
	 * @return the RSS in KiB, or -1 where {@code /proc} does not tell
	 */
	long residentSetKiB() {
		try {
			return Files.readAllLines(Path.of("/proc", Long.toString(this.process.pid()), "status"))
				.stream()
				.filter((line) -> line.startsWith("VmRSS:"))
				.mapToLong((line) -> Long.parseLong(line.replaceAll("[^0-9]", "")))
				.findFirst()
				.orElse(-1);
		}
		catch (IOException ex) {
			return -1;
		}
	}

	/**
	 * Describe the process for a failure message: its pid and the last
	 * {@value #LOG_TAIL_LINES} lines of its log.
	 */
	String logTail() {
		String[] lines = output().split("\\R", -1);
		int from = Math.max(0, lines.length - LOG_TAIL_LINES);
		return "--- sample app pid " + this.process.pid() + (this.process.isAlive() ? "" : " (exited)") + ", last "
				+ (lines.length - from) + " lines of its log ---\n" + String.join("\n", List.of(lines).subList(from,
						lines.length));
	}

	/**
	 * Wait until a condition holds, polling it twice a second; an exception thrown by the
	 * condition (a broker call timing out on a loaded machine) counts as not yet.
	 * @param what what is awaited, for the failure message
	 * @param atMost the longest wait: generous, a loaded CI machine is slow
	 * @param condition the condition
	 * @param workers the processes whose log tails a failure shows
	 * @throws AssertionError when the condition does not hold in time
	 */
	static void awaitUntil(String what, Duration atMost, Callable<Boolean> condition, List<SampleAppProcess> workers) {
		awaitCondition("Waited " + atMost.toSeconds() + " s for " + what, await(what).atMost(atMost), condition,
				workers);
	}

	/**
	 * Wait until a condition has held for a whole period.
	 * @param what what must hold, for the failure message
	 * @param during how long it must hold without a break
	 * @param atMost the longest wait, {@code during} included
	 * @param condition the condition
	 * @param workers the processes whose log tails a failure shows
	 * @throws AssertionError when the condition does not hold for the period in time
	 */
	static void awaitHolding(String what, Duration during, Duration atMost, Callable<Boolean> condition,
			List<SampleAppProcess> workers) {
		awaitCondition(what + " did not hold for " + during.toSeconds() + " s within " + atMost.toSeconds() + " s",
				await(what).during(during).atMost(atMost), condition, workers);
	}

	/** {@link #awaitUntil(String, Duration, Callable, List)} showing this process's log. */
	void awaitUntil(String what, Duration atMost, Callable<Boolean> condition) {
		awaitUntil(what, atMost, condition, List.of(this));
	}

	/** {@link #awaitHolding(String, Duration, Duration, Callable, List)} showing this process's log. */
	void awaitHolding(String what, Duration during, Duration atMost, Callable<Boolean> condition) {
		awaitHolding(what, during, atMost, condition, List.of(this));
	}

	private static void awaitCondition(String failure, ConditionFactory wait, Callable<Boolean> condition,
			List<SampleAppProcess> workers) {
		AtomicReference<Exception> lastException = new AtomicReference<>();
		try {
			wait.pollInterval(POLL_INTERVAL).until(() -> {
				try {
					return condition.call();
				}
				catch (Exception ex) {
					lastException.set(ex);
					return false;
				}
			});
		}
		catch (ConditionTimeoutException ex) {
			StringBuilder message = new StringBuilder(failure);
			if (lastException.get() != null) {
				message.append("; the condition last threw ").append(lastException.get());
			}
			for (SampleAppProcess worker : workers) {
				message.append('\n').append(worker.logTail());
			}
			AssertionError error = new AssertionError(message.toString(), ex);
			if (lastException.get() != null) {
				error.addSuppressed(lastException.get());
			}
			throw error;
		}
	}

	String output() {
		try {
			return Files.readString(this.output, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
