package dev.lockstep.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sample app's executable jar run as a separate OS process, the way an operator runs
 * it, so that end-to-end tests can read its output and exit code and kill it.
 */
final class SampleAppProcess {

	private final Process process;

	private final Path output;

	private SampleAppProcess(Process process, Path output) {
		this.process = process;
		this.output = output;
	}

	static Path jar() {
		Path jar = Path.of(System.getProperty("lockstep.sample-app.jar", "sample-app/target/lockstep-sample-app.jar"));
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException("No sample app jar at " + jar.toAbsolutePath()
					+ "; build it with ./mvnw -pl sample-app -am package");
		}
		return jar;
	}

	static SampleAppProcess start(Path workDir, String... args) {
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Xmx256m", "-XX:+UseSerialGC", "-jar", jar().toAbsolutePath().toString()));
		command.addAll(List.of(args));
		try {
			Path output = Files.createTempFile(workDir, "sample-app-", ".log");
			Process process = new ProcessBuilder(command).directory(workDir.toFile())
				.redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
			return new SampleAppProcess(process, output);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	int awaitExit(Duration timeout) throws InterruptedException {
		if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			this.process.destroyForcibly().waitFor();
			throw new IllegalStateException("Sample app did not exit within " + timeout + "; output:\n" + output());
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

	String output() {
		try {
			return Files.readString(this.output, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
