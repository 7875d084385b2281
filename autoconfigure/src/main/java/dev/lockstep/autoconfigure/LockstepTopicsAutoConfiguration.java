package dev.lockstep.autoconfigure;

import java.util.Optional;

import dev.lockstep.autoconfigure.validation.PropertyOrigins;
import dev.lockstep.autoconfigure.validation.TransportSecurity;
import org.apache.kafka.clients.admin.NewTopic;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Declares the topics of {@code lockstep.topics.*}; Spring Boot's {@link KafkaAdmin}
 * creates the missing ones at start-up.
 */
@AutoConfiguration(after = KafkaAutoConfiguration.class)
@ConditionalOnClass(KafkaAdmin.class)
@EnableConfigurationProperties(LockstepProperties.class)
public final class LockstepTopicsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "lockstepTopics")
	KafkaAdmin.NewTopics lockstepTopics(LockstepProperties properties, ObjectProvider<KafkaAdmin> kafkaAdmin,
			Environment environment) {
		// Spring's KafkaAdmin connects at start-up to create them: a client Lockstep configures.
		kafkaAdmin.ifAvailable((admin) -> {
			if (!properties.getTopics().isEmpty()) {
				new TransportSecurity(properties.getSecurity().isRequireEncryption(), new PropertyOrigins(environment))
					.checkClient("Spring's KafkaAdmin (creating lockstep.topics)", "spring.kafka.admin", "admin",
							admin.getConfigurationProperties());
			}
		});
		return new KafkaAdmin.NewTopics(properties.getTopics().entrySet().stream().map((entry) -> {
			LockstepProperties.Topic topic = entry.getValue();
			Optional<Short> replicas = (topic.getReplicas() > 0) ? Optional.of(topic.getReplicas()) : Optional.empty();
			return new NewTopic(entry.getKey(), Optional.of(topic.getPartitions()), replicas)
				.configs(topic.getConfig());
		}).toArray(NewTopic[]::new));
	}

}
