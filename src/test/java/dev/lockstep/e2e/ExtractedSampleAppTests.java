package dev.lockstep.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The extracted sample app the scenarios run takes its classes from the archive its
 * training run wrote: a stale archive or options it was not trained with would have the
 * JVM load every class itself, and the scenarios would run as before, only slower.
 */
class ExtractedSampleAppTests {

	@Test
	void theExtractedAppLoadsTheApplicationsAndSpringsClassesFromItsTrainedArchive(@TempDir Path workDir)
			throws Exception {
		ExtractedSampleApp app = ExtractedSampleApp.extract(KafkaClients.KAFKA_41.jar(), SampleAppProcess.java(),
				SampleAppProcess.JVM_OPTIONS);
		List<String> command = new ArrayList<>(List.of(SampleAppProcess.java()));
		command.addAll(SampleAppProcess.JVM_OPTIONS);
		command.addAll(List.of("-Xlog:class+load=info", "-Dspring.context.exit=onRefresh"));
		command.addAll(app.launch());
		command.addAll(List.of("--spring.kafka.bootstrap-servers=127.0.0.1:1", "--spring.kafka.admin.auto-create=false",
				"--spring.main.web-application-type=none"));
		Path log = workDir.resolve("class-load.log");
		Process process = new ProcessBuilder(command).directory(workDir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("exited").isTrue();
		String output = Files.readString(log);
		assertThat(process.exitValue()).as(output).isZero();
		assertThat(output).contains("dev.lockstep.sample.SampleApplication source: shared objects file (top)")
			.contains("org.springframework.boot.SpringApplication source: shared objects file (top)")
			.contains("dev.lockstep.worker.Worker source: shared objects file (top)");
	}

}
