package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged sample app starts as its own process. The order-normalization commands are
 * not built yet: the app must say so rather than pretend to have run them.
 */
class SampleAppJarTests {

	@Test
	void packagedJarRunsAsItsOwnProcessAndSaysWhatItCannotDoYet(@TempDir Path workDir) throws Exception {
		SampleAppProcess app = SampleAppProcess.start(workDir, "demo");
		assertThat(app.awaitExit(Duration.ofSeconds(60))).isZero();
		assertThat(app.output()).contains("command demo is not available yet");
	}

}
