package dev.lockstep.autoconfigure.health;

import java.time.Duration;
import java.util.Map;

import dev.lockstep.autoconfigure.LockstepProperties;
import dev.lockstep.autoconfigure.LockstepRegistryAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepWorkersAutoConfiguration;
import dev.lockstep.autoconfigure.validation.PropertyOrigins;
import dev.lockstep.autoconfigure.validation.TransportSecurity;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.worker.LockstepWorkers;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Health contributors for Kafka ({@code kafka}), the schema registry
 * ({@code schemaRegistry}) and Lockstep's workers ({@code lockstep}). Each backs off
 * without Spring Boot's health support and can be turned off with
 * {@code management.health.<name>.enabled=false}.
 */
@AutoConfiguration(after = { KafkaAutoConfiguration.class, LockstepRegistryAutoConfiguration.class,
		LockstepWorkersAutoConfiguration.class })
@ConditionalOnClass(HealthIndicator.class)
@EnableConfigurationProperties(LockstepProperties.class)
public final class LockstepHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnBean(KafkaAdmin.class)
	@ConditionalOnMissingBean(name = "kafkaHealthIndicator")
	@ConditionalOnEnabledHealthIndicator("kafka")
	KafkaClusterHealthIndicator kafkaHealthIndicator(KafkaAdmin kafkaAdmin, LockstepProperties properties,
			Environment environment) {
		Map<String, Object> adminConfig = kafkaAdmin.getConfigurationProperties();
		new TransportSecurity(properties.getSecurity().isRequireEncryption(), new PropertyOrigins(environment))
			.checkClient("the Kafka health indicator's admin client", "spring.kafka.admin", "admin", adminConfig);
		return new KafkaClusterHealthIndicator(adminConfig, Duration.ofSeconds(5));
	}

	@Bean
	@ConditionalOnBean(RegistryClient.class)
	@ConditionalOnMissingBean(name = "schemaRegistryHealthIndicator")
	@ConditionalOnEnabledHealthIndicator("schemaRegistry")
	SchemaRegistryHealthIndicator schemaRegistryHealthIndicator(RegistryClient client) {
		return new SchemaRegistryHealthIndicator(client);
	}

	@Bean
	@ConditionalOnBean(LockstepWorkers.class)
	@ConditionalOnMissingBean(name = "lockstepHealthIndicator")
	@ConditionalOnEnabledHealthIndicator("lockstep")
	LockstepWorkersHealthIndicator lockstepHealthIndicator(LockstepWorkers workers) {
		return new LockstepWorkersHealthIndicator(workers);
	}

}
