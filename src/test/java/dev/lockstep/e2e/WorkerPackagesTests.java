package dev.lockstep.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

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

	private static final Path WORKER = RepositorySources.ROOT.resolve("worker");

	// An internal package named: a package declaration, an import (a wildcard too), a
	// qualified type in code, or a string such as a logger category.
	private static final Pattern INTERNAL = Pattern.compile("dev\\.lockstep\\.worker\\.(?:slot|ordering|invalid)\\b");

	@Test
	void onlyTheWorkerModuleNamesTheWorkersInternalPackages() throws IOException {
		Map<Path, List<String>> outside = new TreeMap<>();
		Map<Path, List<String>> inside = new TreeMap<>();
		for (Path source : RepositorySources.javaSourcesBut("WorkerPackagesTests.java")) {
			List<String> named = internalPackagesNamedIn(Files.readString(source));
			if (!named.isEmpty()) {
				(source.startsWith(WORKER) ? inside : outside).put(source, named);
			}
		}
		assertThat(inside).as("the worker's own sources naming its internal packages").isNotEmpty();
		assertThat(outside).as("sources outside the worker module naming its internal packages").isEmpty();
	}

	@Test
	void theCheckFindsEveryWayOfNamingAnInternalPackageButNotTheApiOrObservationPackages() {
		assertThat(internalPackagesNamedIn("package dev.lockstep.worker.slot;\nimport dev.lockstep.worker.ordering.*;\n"
				+ "new dev.lockstep.worker.invalid.QuarantineRedrive(a, b, c); getLogger(\"dev.lockstep.worker.slot\");"))
			.containsExactly("dev.lockstep.worker.slot", "dev.lockstep.worker.ordering", "dev.lockstep.worker.invalid",
					"dev.lockstep.worker.slot");
		assertThat(internalPackagesNamedIn("import dev.lockstep.worker.Worker;\n"
				+ "import dev.lockstep.worker.observation.RecordTracing;\nimport dev.lockstep.worker.slotted.X;"))
			.isEmpty();
	}

	private static List<String> internalPackagesNamedIn(String source) {
		return INTERNAL.matcher(source).results().map(MatchResult::group).toList();
	}

}
