package dev.lockstep.kraft;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class InterProcessLockTests {

	@TempDir
	Path directory;

	@Test
	void aLockHeldHereIsRefusedToAnotherProcessUntilClosed() throws Exception {
		Path file = this.directory.resolve("held.lock");
		try (InterProcessLock lock = InterProcessLock.tryLock(file)) {
			assertThat(lock).isNotNull();
			assertThat(tryLockInAnotherProcess(file)).isEqualTo("refused");
		}
		assertThat(tryLockInAnotherProcess(file)).isEqualTo("locked");
	}

	@Test
	void aLockThisJvmHoldsIsRefusedHereAndStaysHeldAgainstOtherProcesses() throws Exception {
		Path file = this.directory.resolve("held.lock");
		try (InterProcessLock lock = InterProcessLock.tryLock(file)) {
			assertThat(InterProcessLock.tryLock(file)).isNull();
			assertThat(tryLockInAnotherProcess(file)).isEqualTo("refused");
		}
	}

	private static String tryLockInAnotherProcess(Path file) throws IOException, InterruptedException {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process other = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
				OtherProcess.class.getName(), file.toString())
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		try {
			assertThat(other.waitFor(30, TimeUnit.SECONDS)).as("the other process ended").isTrue();
			String output = new String(other.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
			return output.lines().filter((line) -> line.startsWith("lock: ")).map((line) -> line.substring(6))
				.findFirst().orElse(output);
		}
		finally {
			other.destroyForcibly();
		}
	}

	/** Tries the lock on a file and says whether it got it. */
	static final class OtherProcess {

		public static void main(String[] args) throws IOException {
			try (InterProcessLock lock = InterProcessLock.tryLock(Path.of(args[0]))) {
				System.out.println("lock: " + ((lock != null) ? "locked" : "refused"));
			}
		}

	}

}
