package dev.lockstep.autoconfigure.dev;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.LogLevel;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Keeps the development broker quiet: when {@code lockstep.dev.embedded-broker.enabled}
 * is true and no {@code spring.kafka.bootstrap-servers} is set, the Kafka server's
 * loggers default to WARN (it logs over a thousand INFO lines while it starts, burying the
 * application's own log), or to the root level where that is quieter. The levels are the
 * environment's last property source, so any {@code logging.level.*} the user sets for
 * these loggers wins.
 */
public class DevBrokerLoggingEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** The name of the property source holding the default levels. */
	public static final String PROPERTY_SOURCE_NAME = "lockstepDevBrokerLogging";

	// The broker's and controller's own packages, and the configuration dump logger: the
	// broker dumps its configuration three times (about 1,000 lines) through Kafka's
	// shared AbstractConfig, so the clients' dumps go quiet too. The rest of the clients'
	// logging (org.apache.kafka.clients, org.apache.kafka.common) keeps its level.
	private static final List<String> SERVER_LOGGERS = List.of("kafka", "state.change.logger",
			"org.apache.kafka.server", "org.apache.kafka.raft", "org.apache.kafka.controller",
			"org.apache.kafka.metadata", "org.apache.kafka.image", "org.apache.kafka.storage",
			"org.apache.kafka.coordinator", "org.apache.kafka.snapshot", "org.apache.kafka.queue",
			"org.apache.kafka.network", "org.apache.kafka.security", "org.apache.kafka.tools",
			"org.apache.kafka.common.config.AbstractConfig");

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		boolean brokerStarts = environment.getProperty("lockstep.dev.embedded-broker.enabled", Boolean.class, false)
				&& OnNoBootstrapServersCondition.isUnset(environment.getProperty("spring.kafka.bootstrap-servers"));
		if (!brokerStarts) {
			return;
		}
		String level = quieterOfWarnAnd(environment.getProperty("logging.level.root"));
		Map<String, Object> levels = new LinkedHashMap<>();
		SERVER_LOGGERS.forEach((logger) -> levels.put("logging.level." + logger, level));
		environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, levels));
	}

	// A logger's own level overrides the root's: a root set to ERROR (as the sample's
	// one-shot commands do) would otherwise still print the broker's warnings.
	private static String quieterOfWarnAnd(String root) {
		if (root == null) {
			return LogLevel.WARN.name();
		}
		// YAML reads "off" as false, and Spring Boot takes false for OFF.
		String level = root.trim().equalsIgnoreCase("false") ? LogLevel.OFF.name() : root.trim();
		try {
			return (LogLevel.valueOf(level.toUpperCase(Locale.ROOT)).compareTo(LogLevel.WARN) > 0) ? level
					: LogLevel.WARN.name();
		}
		catch (IllegalArgumentException ex) {
			// Spring Boot reports the root's own bad value.
			return LogLevel.WARN.name();
		}
	}

	@Override
	public int getOrder() {
		// After the config data (application.yml) is loaded, which says whether the broker runs.
		return Ordered.LOWEST_PRECEDENCE;
	}

}
