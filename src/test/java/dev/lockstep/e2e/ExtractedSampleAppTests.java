package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app as the scenarios start it takes its classes from the archive the build
 * trained: a stale archive, or options it was not trained with, would have the JVM load
 * every class itself, and the scenarios would run as before, only slower.
 */
class ExtractedSampleAppTests {

	private static final List<String> CLASSES = List.of("dev.lockstep.sample.SampleApplication",
			"org.springframework.boot.SpringApplication", "dev.lockstep.worker.Worker");

	@Test
	void theScenariosSampleAppLoadsTheApplicationsAndSpringsClassesFromItsTrainedArchive(@TempDir Path workDir)
			throws Exception {
		// Up to the refreshed context, where the workers have been built but not started.
		SampleAppProcess app = SampleAppProcess.start(workDir,
				Map.of("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info -Dspring.context.exit=onRefresh"),
				"--spring.kafka.bootstrap-servers=127.0.0.1:1", "--spring.kafka.admin.auto-create=false",
				"--spring.main.web-application-type=none");
		int exitCode = app.awaitExit(Duration.ofMinutes(3));
		// The class-data-sharing lines and the loads of the classes looked for, not every load.
		String loads = app.output()
			.lines()
			.filter((line) -> line.contains("[cds") || CLASSES.stream().anyMatch((name) -> line.contains(name + " ")))
			.collect(Collectors.joining("\n"));
		assertThat(exitCode).as(app::logTail).isZero();
		assertThat(loads).as(loads)
			.contains(CLASSES.stream().map((name) -> name + " source: shared objects file (top)").toList());
	}

}
