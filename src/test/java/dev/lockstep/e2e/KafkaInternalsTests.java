package dev.lockstep.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The build check of Lockstep's dependence on Kafka's internals: every Kafka class that a
 * source file of the repository imports or names (in code, a string for reflection, or a
 * comment) outside Kafka's public API
 * is listed in docs/compatibility.md ("Kafka classes outside the public API") with the
 * modules that use it and the reason no public API serves; a listed class nobody uses any
 * more fails too. The public API is the set of packages Kafka publishes Javadoc for
 * (kafka-clients' build: {@code clients/admin}, {@code clients/consumer},
 * {@code clients/producer}, {@code common} and the subpackages below) and Kafka Streams.
 */
class KafkaInternalsTests {

	private static final Path ROOT = RepositorySources.ROOT;

	private static final Path LISTING = ROOT.resolve("docs/compatibility.md");

	private static final String SECTION = "## Kafka classes outside the public API";

	// Kafka's public Java API: the packages kafka-clients publishes Javadoc for, and Streams.
	private static final Set<String> PUBLIC_PACKAGES = Set.of("org.apache.kafka.clients.admin",
			"org.apache.kafka.clients.consumer", "org.apache.kafka.clients.producer", "org.apache.kafka.common",
			"org.apache.kafka.common.acl", "org.apache.kafka.common.annotation", "org.apache.kafka.common.errors",
			"org.apache.kafka.common.header", "org.apache.kafka.common.metrics",
			"org.apache.kafka.common.metrics.stats", "org.apache.kafka.common.quota", "org.apache.kafka.common.resource",
			"org.apache.kafka.common.serialization", "org.apache.kafka.common.config",
			"org.apache.kafka.common.config.provider", "org.apache.kafka.common.security.auth",
			"org.apache.kafka.common.security.plain", "org.apache.kafka.common.security.scram",
			"org.apache.kafka.common.security.token.delegation", "org.apache.kafka.common.security.oauthbearer",
			"org.apache.kafka.server.authorizer", "org.apache.kafka.server.policy", "org.apache.kafka.server.quota");

	private static final String STREAMS = "org.apache.kafka.streams";

	// A class named by its qualified name: an import (static or not), a string (reflection),
	// code or a comment; not the tail of a longer name.
	private static final Pattern USE = Pattern
		.compile("(?<![\\w.])((?:org\\.apache\\.kafka|kafka)\\.[a-z0-9_.]+\\.[A-Z]\\w*)");

	// A wildcard import hides which classes a file uses.
	private static final Pattern WILDCARD = Pattern
		.compile("^import\\s+(?:static\\s+)?(?:org\\.apache\\.kafka|kafka)\\.[\\w.]*\\*;", Pattern.MULTILINE);

	// | `org.apache.kafka.common.utils.Time` | kraft | reason |
	private static final Pattern ROW = Pattern.compile("^\\| `([\\w.]+)` \\| ([\\w., -]+) \\| (.*) \\|$",
			Pattern.MULTILINE);

	@Test
	void everyKafkaClassOutsideThePublicApiIsListedWithItsModulesAndItsReason() throws IOException {
		Map<String, Set<String>> used = internalUses();
		Map<String, String> listedModules = new TreeMap<>();
		Map<String, String> reasons = new TreeMap<>();
		Matcher row = ROW.matcher(section());
		while (row.find()) {
			listedModules.put(row.group(1), row.group(2).trim());
			reasons.put(row.group(1), row.group(3).trim());
		}
		assertThat(used.keySet()).as("Kafka classes outside the public API that sources use; list each in "
				+ LISTING + " with its modules and reason").isSubsetOf(listedModules.keySet());
		assertThat(listedModules.keySet()).as("listed classes no source uses any more: remove their rows")
			.isSubsetOf(used.keySet());
		used.forEach((type, modules) -> assertThat(listedModules.get(type)).as("modules using " + type)
			.isEqualTo(String.join(", ", modules)));
		reasons.forEach((type, reason) -> assertThat(reason).as("the reason for " + type).isNotBlank());
	}

	@Test
	void theCheckFindsImportsAndNamesAndKnowsThePublicApi() {
		assertThat(isPublic("org.apache.kafka.clients.consumer.ConsumerRecord")).isTrue();
		assertThat(isPublic("org.apache.kafka.streams.kstream.KStream")).isTrue();
		assertThat(isPublic("org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy")).isFalse();
		assertThat(isPublic("org.apache.kafka.common.header.internals.RecordHeaders")).isFalse();
		assertThat(isPublic("org.apache.kafka.clients.CommonClientConfigs")).isFalse();
		assertThat(isPublic("kafka.server.KafkaConfig")).isFalse();
		assertThat(classesUsedIn("import static org.apache.kafka.common.utils.Utils.wrap;\n"
				+ "import kafka.server.KafkaConfig;\nClass.forName(\"org.apache.kafka.common.utils.internals.Exit\");\n"
				+ "new org.apache.kafka.common.header.internals.RecordHeaders(); dev.lockstep.registry.kafka.Raw x;"))
			.containsExactly("org.apache.kafka.common.utils.Utils", "kafka.server.KafkaConfig",
					"org.apache.kafka.common.utils.internals.Exit", "org.apache.kafka.common.header.internals.RecordHeaders");
		assertThat(WILDCARD.matcher("import org.apache.kafka.common.utils.*;").find()).isTrue();
	}

	/** Each internal class used by the repository's sources, with the modules using it. */
	private static Map<String, Set<String>> internalUses() throws IOException {
		Map<String, Set<String>> uses = new TreeMap<>();
		for (Path source : RepositorySources.javaSourcesBut("KafkaInternalsTests.java")) {
			String text = Files.readString(source);
			assertThat(WILDCARD.matcher(text).find()).as("a wildcard import of Kafka's in " + source).isFalse();
			for (String type : classesUsedIn(text)) {
				if (!isPublic(type)) {
					uses.computeIfAbsent(type, (key) -> new TreeSet<>()).add(module(source));
				}
			}
		}
		return uses;
	}

	private static List<String> classesUsedIn(String source) {
		List<String> types = new ArrayList<>();
		Matcher use = USE.matcher(source);
		while (use.find()) {
			types.add(use.group(1));
		}
		return types;
	}

	private static boolean isPublic(String type) {
		String pkg = type.substring(0, type.lastIndexOf('.'));
		return PUBLIC_PACKAGES.contains(pkg) || pkg.equals(STREAMS) || pkg.startsWith(STREAMS + ".");
	}

	// The module directory, or "e2e" for the repository's own src/test.
	private static String module(Path source) {
		Path relative = ROOT.relativize(source);
		String first = relative.getName(0).toString();
		return first.equals("src") ? "e2e" : first;
	}

	private static String section() {
		try {
			String docs = Files.readString(LISTING);
			int start = docs.indexOf(SECTION);
			assertThat(start).as(SECTION + " in " + LISTING).isNotNegative();
			int end = docs.indexOf("\n## ", start + SECTION.length());
			return docs.substring(start, (end < 0) ? docs.length() : end);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
