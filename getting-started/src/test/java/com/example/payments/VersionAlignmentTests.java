package com.example.payments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lockstep.test.kafka.KafkaRelease;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringBootVersion;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The versions this module and the BOM state on their own (they cannot inherit Lockstep's
 * parent) stay those Lockstep is built with, and the Spring Boot 4.1 and Kafka 4.4 rows build
 * this same service.
 */
class VersionAlignmentTests {

	private static final Path ROOT = Path.of("..");

	@Test
	void springBootParentIsTheVersionLockstepIsBuiltWith() throws IOException {
		String parent = Files.readString(ROOT.resolve("getting-started/pom.xml"));
		assertThat(first(parent, "<artifactId>spring-boot-starter-parent</artifactId>\\s*<version>([^<]+)</version>"))
			.isEqualTo(property("spring-boot.version"));
	}

	@Test
	void bomManagesTheLibrariesLockstepIsBuiltWith() throws IOException {
		String bom = Files.readString(ROOT.resolve("dependencies/pom.xml"));
		for (String version : new String[] { "avro.version", "json-schema-validator.version", "protobuf.version" }) {
			assertThat(first(bom, "<" + Pattern.quote(version) + ">([^<]+)</")).as(version)
				.isEqualTo(property(version));
		}
	}

	@Test
	void lockstepVersionIsTheProjectVersion() throws IOException {
		String module = Files.readString(ROOT.resolve("getting-started/pom.xml"));
		String root = Files.readString(ROOT.resolve("pom.xml"));
		String projectVersion = first(root, "<artifactId>lockstep-parent</artifactId>\\s*<version>([^<]+)</version>");
		assertThat(first(module, "<lockstep.version>([^<]+)</lockstep.version>")).isEqualTo(projectVersion);
		assertThat(first(Files.readString(ROOT.resolve("dependencies/pom.xml")),
				"<artifactId>lockstep-dependencies</artifactId>\\s*<version>([^<]+)</version>"))
			.isEqualTo(projectVersion);
	}

	@Test
	void theTestsRunOnTheSpringBootTheirModulesPomNames() throws IOException {
		// getting-started's pom here, getting-started-boot-4.1's in that module's run.
		String own = Files.readString(Path.of("pom.xml"));
		assertThat(SpringBootVersion.getVersion())
			.isEqualTo(first(own, "<artifactId>spring-boot-starter-parent</artifactId>\\s*<version>([^<]+)</version>"));
	}

	@Test
	void theTestsRunOnTheKafkaTheirModulesPomPins() throws IOException {
		// Only the Kafka 4.4 row pins it; the others run the version their Spring Boot manages.
		Matcher pinned = Pattern.compile("<kafka.version>([^<]+)</kafka.version>")
			.matcher(Files.readString(Path.of("pom.xml")));
		Assumptions.assumeTrue(pinned.find(), "kafka.version not pinned in this module");
		assertThat(KafkaRelease.current().version()).isEqualTo(pinned.group(1));
	}

	@ParameterizedTest
	@ValueSource(strings = { "getting-started-boot-4.1", "getting-started-kafka-4.4" })
	void theOtherRowsBuildTheSameService(String row) throws IOException {
		String module = Files.readString(ROOT.resolve("getting-started/pom.xml"));
		String other = Files.readString(ROOT.resolve(row + "/pom.xml"));
		// The BOM, the dependencies and the plugins, as the same text.
		for (String regex : new String[] { "(?s)<dependencyManagement>(.*?)</dependencyManagement>",
				"(?s)</dependencyManagement>(.*?)<build>", "(?s)<plugins>(.*?)</plugins>" }) {
			assertThat(first(other, regex)).as(regex).isEqualTo(first(module, regex));
		}
		assertThat(first(other, "<lockstep.version>([^<]+)</lockstep.version>"))
			.isEqualTo(first(module, "<lockstep.version>([^<]+)</lockstep.version>"));
	}

	private static String property(String name) throws IOException {
		return first(Files.readString(ROOT.resolve("pom.xml")), "<" + Pattern.quote(name) + ">([^<]+)</");
	}

	private static String first(String text, String regex) {
		Matcher matcher = Pattern.compile(regex).matcher(text);
		assertThat(matcher.find()).as("%s found", regex).isTrue();
		return matcher.group(1);
	}

}
