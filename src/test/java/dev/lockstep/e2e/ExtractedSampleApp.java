package dev.lockstep.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The sample app's executable jar as Spring Boot's "efficient deployments" chapter
 * recommends running a service, and as docs/sample-app.md shows: extracted
 * ({@code -Djarmode=tools extract}) and started with a class-data-sharing archive from one
 * training run ({@code -XX:ArchiveClassesAtExit} with {@code spring.context.exit=onRefresh}).
 * The application and its configuration are the jar's; a process starts on about half the
 * CPU, which the scenarios' hundred-odd starts on two cores need. The build prepares each
 * client line's once, before the tests ({@link #main}), so that no scenario's first start
 * carries it; a stale or unusable archive would only have the JVM load the classes itself,
 * warning in the log, which {@code ExtractedSampleAppTests} catches.
 */
final class ExtractedSampleApp {

	private static final long TIMEOUT_MINUTES = 3;

	private final Path jar;

	private final Path archive;

	private ExtractedSampleApp(Path directory, Path executableJar) {
		this.jar = directory.resolve("application").resolve(executableJar.getFileName());
		this.archive = directory.resolve("application.jsa");
	}

	/**
	 * Return the application the build prepared for a client line.
	 * @param clients the client line
	 * @return the extracted application
	 * @throws IllegalStateException when the build has not prepared it
	 */
	static ExtractedSampleApp of(KafkaClients clients) {
		ExtractedSampleApp app = new ExtractedSampleApp(clients.extractedDirectory(), clients.jar());
		if (!Files.isRegularFile(app.jar) || !Files.isRegularFile(app.archive)) {
			throw new IllegalStateException("No extracted sample app with its archive at " + app.jar + " and "
					+ app.archive + "; prepare them with ./mvnw -pl e2e -am process-test-classes");
		}
		return app;
	}

	/** What follows the JVM's options to start the extracted application on its archive. */
	List<String> launch() {
		return List.of("-XX:SharedArchiveFile=" + this.archive, "-jar", this.jar.toString());
	}

	/**
	 * Extract every client line's jar and train its archive, as the build does before the
	 * tests (the jars' and the directory's system properties as the tests have them).
	 * @param args none
	 */
	public static void main(String[] args) throws IOException {
		for (KafkaClients clients : KafkaClients.values()) {
			prepare(clients.jar(), clients.extractedDirectory());
		}
	}

	private static void prepare(Path executableJar, Path directory) throws IOException {
		delete(directory);
		Files.createDirectories(directory);
		ExtractedSampleApp app = new ExtractedSampleApp(directory, executableJar);
		List<String> extraction = SampleAppProcess.jvm();
		extraction.addAll(List.of("-Djarmode=tools", "-jar", executableJar.toAbsolutePath().toString(), "extract",
				"--destination", app.jar.getParent().toString()));
		run(directory, "extract.log", extraction);
		// The archive serves the heap and collector settings it was trained with: the
		// processes' own. The run stops at the refreshed context, before any worker starts,
		// so it needs no broker; with topic creation off Spring Kafka's admin looks for none.
		List<String> training = SampleAppProcess.jvm();
		training.addAll(List.of("-XX:ArchiveClassesAtExit=" + app.archive, "-Dspring.context.exit=onRefresh", "-jar",
				app.jar.toString(), "--spring.kafka.bootstrap-servers=127.0.0.1:1",
				"--spring.kafka.admin.auto-create=false", "--server.port=0", "--logging.level.root=WARN"));
		Path log = run(directory, "training.log", training);
		if (!Files.isRegularFile(app.archive) || Files.size(app.archive) == 0) {
			throw new IllegalStateException("The training run of " + app.jar + " wrote no archive at " + app.archive
					+ ":\n" + Files.readString(log));
		}
		System.out.printf("Extracted %s into %s and trained its archive%n", executableJar.getFileName(), directory);
	}

	private static Path run(Path directory, String logName, List<String> command) throws IOException {
		Path log = directory.resolve(logName);
		Process process = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
				throw new IllegalStateException(String.join(" ", command) + " did not finish in " + TIMEOUT_MINUTES
						+ " min:\n" + Files.readString(log));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		finally {
			process.destroyForcibly();
		}
		if (process.exitValue() != 0) {
			throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue() + ":\n"
					+ Files.readString(log));
		}
		return log;
	}

	private static void delete(Path directory) throws IOException {
		if (!Files.exists(directory)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(directory)) {
			for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.delete(path);
			}
		}
	}

}
