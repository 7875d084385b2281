package dev.lockstep.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The repository's Java sources, for the build checks that read them all: every module's
 * main and test sources and this suite's, not what a build generated.
 */
final class RepositorySources {

	/** The repository's root, from the e2e module the tests run in. */
	static final Path ROOT = Path.of("..");

	private RepositorySources() {
	}

	/**
	 * Return every Java source of the repository but one check's own, which names what it
	 * looks for as its test data.
	 * @param check the file name of the check reading them
	 * @return the sources, as paths relative to the e2e module
	 */
	static List<Path> javaSourcesBut(String check) throws IOException {
		try (Stream<Path> files = Files.walk(ROOT)) {
			List<Path> sources = files.filter((file) -> file.toString().endsWith(".java"))
				.filter((file) -> !file.toString().contains("/target/") && !file.toString().contains("/.git/"))
				.filter((file) -> !file.getFileName().toString().equals(check))
				.map(Path::normalize)
				.toList();
			assertThat(sources).as("the repository's Java sources").hasSizeGreaterThan(100);
			return sources;
		}
	}

}
