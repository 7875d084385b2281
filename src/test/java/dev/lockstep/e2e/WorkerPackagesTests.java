package dev.lockstep.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The build check of the worker runtime's boundary (docs/architecture.md): its internal
 * packages ({@code slot}, {@code ordering}, {@code invalid}) are public only so that the
 * worker's own packages can call each other, so no source outside the {@code worker}
 * module names them; the auto-configuration, the sample and a user's service use the API
 * package and the observation extension points.
 */
class WorkerPackagesTests {

	private static final Path ROOT = Path.of("..");

	private static final Path WORKER = ROOT.resolve("worker");

	// A type of an internal package named by its qualified name: an import, code or a string.
	private static final Pattern INTERNAL = Pattern
		.compile("dev\\.lockstep\\.worker\\.(?:slot|ordering|invalid)\\.[A-Z]\\w*");

	@Test
	void onlyTheWorkerModuleNamesTheWorkersInternalPackages() throws IOException {
		Map<Path, List<String>> outside = new TreeMap<>();
		Map<Path, List<String>> inside = new TreeMap<>();
		for (Path source : sources()) {
			List<String> named = internalTypesNamedIn(Files.readString(source));
			if (!named.isEmpty()) {
				(source.startsWith(WORKER) ? inside : outside).put(source, named);
			}
		}
		assertThat(inside).as("the worker's own sources naming its internal packages").isNotEmpty();
		assertThat(outside).as("sources outside the worker module naming its internal packages").isEmpty();
	}

	@Test
	void theCheckFindsImportsAndQualifiedNamesButNotTheApiOrObservationPackages() {
		assertThat(internalTypesNamedIn("import dev.lockstep.worker.slot.SlotId;\n"
				+ "new dev.lockstep.worker.invalid.QuarantineRedrive(a, b, c); dev.lockstep.worker.ordering.KeyGates g;"))
			.containsExactly("dev.lockstep.worker.slot.SlotId", "dev.lockstep.worker.invalid.QuarantineRedrive",
					"dev.lockstep.worker.ordering.KeyGates");
		assertThat(internalTypesNamedIn("import dev.lockstep.worker.Worker;\n"
				+ "import dev.lockstep.worker.observation.RecordTracing;\nimport dev.lockstep.worker.slotted.X;"))
			.isEmpty();
	}

	private static List<Path> sources() throws IOException {
		try (Stream<Path> files = Files.walk(ROOT)) {
			List<Path> sources = files.filter((file) -> file.toString().endsWith(".java"))
				.filter((file) -> !file.toString().contains("/target/") && !file.toString().contains("/.git/"))
				// This check names internal types as its own test data.
				.filter((file) -> !file.getFileName().toString().equals("WorkerPackagesTests.java"))
				.map(Path::normalize)
				.toList();
			assertThat(sources).as("the repository's Java sources").hasSizeGreaterThan(100);
			return sources;
		}
	}

	private static List<String> internalTypesNamedIn(String source) {
		return INTERNAL.matcher(source).results().map(MatchResult::group).toList();
	}

}
