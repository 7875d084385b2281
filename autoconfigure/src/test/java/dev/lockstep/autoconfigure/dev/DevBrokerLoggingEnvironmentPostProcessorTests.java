package dev.lockstep.autoconfigure.dev;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class DevBrokerLoggingEnvironmentPostProcessorTests {

	private final DevBrokerLoggingEnvironmentPostProcessor postProcessor = new DevBrokerLoggingEnvironmentPostProcessor();

	@Test
	void kafkaServerLoggersDefaultToWarnWhenTheDevelopmentBrokerIsEnabled() {
		StandardEnvironment environment = environment(Map.of("lockstep.dev.embedded-broker.enabled", "true"));
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("logging.level.kafka")).isEqualTo("WARN");
		assertThat(environment.getProperty("logging.level.org.apache.kafka.raft")).isEqualTo("WARN");
		assertThat(environment.getProperty("logging.level.org.apache.kafka.clients")).isNull();
	}

	@Test
	void levelsTheUserSetsWin() {
		StandardEnvironment environment = environment(
				Map.of("lockstep.dev.embedded-broker.enabled", "true", "logging.level.kafka", "INFO"));
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("logging.level.kafka")).isEqualTo("INFO");
		assertThat(environment.getProperty("logging.level.org.apache.kafka.controller")).isEqualTo("WARN");
	}

	@Test
	void aQuieterRootLevelQuietsTheServerLoggersToo() {
		for (String root : List.of("ERROR", "off")) {
			StandardEnvironment environment = environment(
					Map.of("lockstep.dev.embedded-broker.enabled", "true", "logging.level.root", root));
			this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
			assertThat(environment.getProperty("logging.level.org.apache.kafka.controller")).as(root).isEqualTo(root);
		}
		StandardEnvironment yamlOff = environment(
				Map.of("lockstep.dev.embedded-broker.enabled", "true", "logging.level.root", "false"));
		this.postProcessor.postProcessEnvironment(yamlOff, new SpringApplication());
		assertThat(yamlOff.getProperty("logging.level.org.apache.kafka.controller")).isEqualTo("OFF");
		StandardEnvironment louder = environment(
				Map.of("lockstep.dev.embedded-broker.enabled", "true", "logging.level.root", "DEBUG"));
		this.postProcessor.postProcessEnvironment(louder, new SpringApplication());
		assertThat(louder.getProperty("logging.level.org.apache.kafka.controller")).isEqualTo("WARN");
	}

	@Test
	void nothingChangesWithoutTheDevelopmentBroker() {
		for (Map<String, Object> properties : List.of(Map.<String, Object>of(),
				Map.<String, Object>of("lockstep.dev.embedded-broker.enabled", "true", "spring.kafka.bootstrap-servers",
						"kafka:9092"))) {
			StandardEnvironment environment = environment(properties);
			this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
			assertThat(environment.getPropertySources()
				.contains(DevBrokerLoggingEnvironmentPostProcessor.PROPERTY_SOURCE_NAME)).as("%s", properties).isFalse();
		}
	}

	private static StandardEnvironment environment(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		return environment;
	}

}
