package dev.lockstep.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The sample app's executable jar as Spring Boot's "efficient deployments" chapter has a
 * service deployed, and as docs/sample-app.md shows: extracted
 * ({@code -Djarmode=tools extract}) and started with a class-data-sharing archive from one
 * training run ({@code -XX:ArchiveClassesAtExit} with {@code spring.context.exit=onRefresh}).
 * The application is the same; a process starts on about half the CPU, which the scenarios'
 * hundred-odd starts on two cores need. The archive holds the JVM's parsed classes only: a
 * stale or unusable one makes the JVM load classes as without it, warning in the log.
 */
final class ExtractedSampleApp {

	private static final long TIMEOUT_MINUTES = 3;

	private final Path jar;

	private final Path archive;

	private ExtractedSampleApp(Path jar, Path archive) {
		this.jar = jar;
		this.archive = archive;
	}

	/**
	 * Extract the executable jar into a temporary directory (removed when this JVM exits)
	 * and train its archive.
	 * @param executableJar the jar as built
	 * @param java the {@code java} launcher the processes run on
	 * @param jvmOptions the options every process runs with: an archive serves the same
	 * heap and collector settings it was trained with
	 * @return the extracted application
	 */
	static ExtractedSampleApp extract(Path executableJar, String java, List<String> jvmOptions) {
		try {
			Path directory = Files.createTempDirectory("lockstep-sample-app-");
			Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(directory), "delete-extracted-sample-app"));
			run(directory, List.of(java, "-Djarmode=tools", "-jar", executableJar.toAbsolutePath().toString(),
					"extract", "--destination", directory.resolve("application").toString()));
			Path jar = directory.resolve("application").resolve(executableJar.getFileName());
			Path archive = directory.resolve("application.jsa");
			List<String> training = new ArrayList<>(List.of(java));
			training.addAll(jvmOptions);
			// Up to the refreshed context, before any worker starts: no broker is needed,
			// and with topic creation off Spring Kafka's admin does not look for one.
			training.addAll(List.of("-XX:ArchiveClassesAtExit=" + archive, "-Dspring.context.exit=onRefresh", "-jar",
					jar.toString(), "--spring.kafka.bootstrap-servers=127.0.0.1:1",
					"--spring.kafka.admin.auto-create=false", "--server.port=0", "--logging.level.root=WARN"));
			run(directory, training);
			if (!Files.isRegularFile(archive) || Files.size(archive) == 0) {
				throw new IllegalStateException("The training run of " + jar + " wrote no archive at " + archive);
			}
			return new ExtractedSampleApp(jar, archive);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** What follows the JVM's options to start the extracted application on its archive. */
	List<String> launch() {
		return List.of("-XX:SharedArchiveFile=" + this.archive, "-jar", this.jar.toString());
	}

	private static void run(Path directory, List<String> command) throws IOException {
		Path log = directory.resolve("step.log");
		Process process = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
				process.destroyForcibly().waitFor();
				throw new IllegalStateException(String.join(" ", command) + " did not finish in " + TIMEOUT_MINUTES
						+ " min:\n" + Files.readString(log));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		if (process.exitValue() != 0) {
			throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue() + ":\n"
					+ Files.readString(log));
		}
	}

	private static void delete(Path directory) {
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// A temporary directory left behind is the operating system's to clear.
		}
	}

}
