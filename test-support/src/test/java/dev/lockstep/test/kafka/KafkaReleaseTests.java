package dev.lockstep.test.kafka;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class KafkaReleaseTests {

	@Test
	void theReleaseOnThisClassPathIsFoundByItsVersionOrLine() {
		KafkaRelease current = KafkaRelease.current();
		String line = current.version().substring(0, current.version().lastIndexOf('.'));
		assertThat(KafkaRelease.named(current.version(), (key) -> null)).isEqualTo(current);
		assertThat(KafkaRelease.named(line, (key) -> null).isCurrent()).isTrue();
		assertThat(current.processClassPath()).isEqualTo(System.getProperty("java.class.path"));
	}

	@Test
	void anotherReleaseIsReadFromItsClassPathFile(@TempDir Path dir) throws Exception {
		Path file = dir.resolve("server.classpath");
		Files.writeString(file, String.join(File.pathSeparator, "/m2/org/scala-library-2.13.15.jar",
				"/m2/org/apache/kafka/kafka_2.13/3.9.2/kafka_2.13-3.9.2.jar", "/m2/kafka-clients-3.9.2.jar"));
		Map<String, String> properties = Map.of(KafkaRelease.CLASS_PATH_PROPERTY_PREFIX + "3.9", file.toString());
		KafkaRelease release = KafkaRelease.named("3.9", properties::get);
		assertThat(release.version()).isEqualTo("3.9.2");
		assertThat(release.isCurrent()).isFalse();
		assertThat(release.processClassPath().split(File.pathSeparator)).hasSize(5)
			.endsWith("/m2/org/scala-library-2.13.15.jar", "/m2/org/apache/kafka/kafka_2.13/3.9.2/kafka_2.13-3.9.2.jar",
					"/m2/kafka-clients-3.9.2.jar");
		assertThatIllegalStateException()
			.isThrownBy(() -> KafkaRelease.named("3.8", Map.of(KafkaRelease.CLASS_PATH_PROPERTY_PREFIX + "3.8",
					file.toString())::get))
			.withMessage(file + " holds Kafka 3.9.2, not 3.8");
	}

	@Test
	void anUnknownReleaseSaysHowToProvideIt() {
		assertThatIllegalStateException().isThrownBy(() -> KafkaRelease.named("3.7", (key) -> null))
			.withMessageContaining("Kafka 3.7 is not on this JVM's class path")
			.withMessageContaining("-Dlockstep.test.kafka-release.3.7");
	}

	@Test
	void specFromSystemPropertiesCarriesTheReleaseAndFeatureLevels() {
		Map<String, String> properties = Map.of(KafkaBrokerSpec.FEATURES_PROPERTY,
				"transaction.version=1, group.version=0");
		KafkaBrokerSpec spec = KafkaBrokerSpec.fromSystemProperties(properties::get);
		assertThat(spec.release()).isEqualTo(KafkaRelease.current());
		assertThat(spec.features()).containsExactlyInAnyOrderEntriesOf(
				Map.of("transaction.version", (short) 1, "group.version", (short) 0));
		assertThat(spec.describe()).isEqualTo(KafkaRelease.current() + " group.version=0 transaction.version=1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> KafkaBrokerSpec
				.fromSystemProperties(Map.of(KafkaBrokerSpec.FEATURES_PROPERTY, "transaction.version")::get))
			.withMessageContaining("name=level");
	}

}
