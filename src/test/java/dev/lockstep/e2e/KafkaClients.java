package dev.lockstep.e2e;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Kafka client lines the sample app is built on, each its own executable jar: Kafka
 * 4.1 (Spring Boot 4.0, what Lockstep is built with: module {@code sample-app}), 4.2
 * (Spring Boot 4.1's: {@code sample-app-boot-4.1}) and 4.4 (Spring Boot 4.1 with
 * {@code kafka.version} pinned: {@code sample-app-kafka-4.4}).
 */
enum KafkaClients {

	/** Kafka 4.1 clients, Spring Boot 4.0. */
	KAFKA_41("4.1", "lockstep.sample-app.jar", "sample-app/target/lockstep-sample-app.jar"),

	/** Kafka 4.2 clients, Spring Boot 4.1. */
	KAFKA_42("4.2", "lockstep.sample-app.jar.4.2", "sample-app-boot-4.1/target/lockstep-sample-app-boot-4.1.jar"),

	/** Kafka 4.4 clients pinned on Spring Boot 4.1. */
	KAFKA_44("4.4", "lockstep.sample-app.jar.4.4", "sample-app-kafka-4.4/target/lockstep-sample-app-kafka-4.4.jar");

	private static final String EXTRACTED_PROPERTY = "lockstep.sample-app.extracted";

	private final String line;

	private final String jarProperty;

	private final String defaultJar;

	KafkaClients(String line, String jarProperty, String defaultJar) {
		this.line = line;
		this.jarProperty = jarProperty;
		this.defaultJar = defaultJar;
	}

	/** The client line, such as {@code 4.4}. */
	String line() {
		return this.line;
	}

	/** The sample app's executable jar built on this client line. */
	Path jar() {
		Path jar = Path.of(System.getProperty(this.jarProperty, this.defaultJar));
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException("No sample app jar at " + jar.toAbsolutePath()
					+ "; build it with ./mvnw -pl e2e -am package -DskipTests");
		}
		return jar;
	}

	/**
	 * Where the build extracts this line's jar and trains its class-data-sharing archive
	 * ({@link ExtractedSampleApp}).
	 */
	Path extractedDirectory() {
		return Path.of(System.getProperty(EXTRACTED_PROPERTY, "target/extracted-sample-apps"), this.line);
	}

}
