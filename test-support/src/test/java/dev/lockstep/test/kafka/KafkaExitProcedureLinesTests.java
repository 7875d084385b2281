package dev.lockstep.test.kafka;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.lockstep.kraft.KafkaExitProcedure;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one adapter over Kafka's {@code Exit} (not public API; it moved in Kafka 4.4) on
 * every Kafka line the matrix runs: a JVM of that line's jars sets the procedure, asks
 * Kafka to exit, and must see the request thrown instead of the JVM ending.
 */
class KafkaExitProcedureLinesTests {

	@ParameterizedTest(name = "Kafka {0}")
	@ValueSource(strings = { "3.9", "4.1", "4.4" })
	void kafkasExitRequestThrowsOnEveryLine(String line) throws Exception {
		KafkaRelease release = KafkaRelease.named(line);
		String classPath = release.processClassPath() + File.pathSeparator + codeSource(ExitCheck.class);
		Process process = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-cp", classPath,
				ExitCheck.class.getName())
			.redirectErrorStream(true)
			.start();
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the check's JVM ended").isTrue();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.exitValue()).as(output).isZero();
		assertThat(output).contains("Check: Kafka asked to end the JVM with status 3: log directory failed")
			.contains("Check: Kafka asked to end the JVM with status 1: fatal");
	}

	private static Path codeSource(Class<?> type) throws URISyntaxException {
		return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
	}

	/** Runs in a JVM of one Kafka line: exits 0 only when Kafka's exit and halt requests threw. */
	static final class ExitCheck {

		private ExitCheck() {
		}

		public static void main(String[] args) throws Exception {
			KafkaExitProcedure.throwInstead("Check");
			Class<?> exit;
			try {
				exit = Class.forName("org.apache.kafka.common.utils.internals.Exit");
			}
			catch (ClassNotFoundException ex) {
				exit = Class.forName("org.apache.kafka.common.utils.Exit");
			}
			boolean threw = threw(exit, "exit", 3, "log directory failed") && threw(exit, "halt", 1, "fatal");
			System.exit(threw ? 0 : 1);
		}

		private static boolean threw(Class<?> exit, String method, int status, String message) throws Exception {
			try {
				exit.getMethod(method, int.class, String.class).invoke(null, status, message);
				return false;
			}
			catch (InvocationTargetException ex) {
				System.out.println(ex.getCause().getMessage());
				return ex.getCause() instanceof IllegalStateException;
			}
		}

	}

}
