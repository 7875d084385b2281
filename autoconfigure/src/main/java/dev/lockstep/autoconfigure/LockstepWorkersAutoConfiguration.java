package dev.lockstep.autoconfigure;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.lockstep.autoconfigure.validation.KafkaPropertiesValidator;
import dev.lockstep.autoconfigure.validation.PropertyOrigins;
import dev.lockstep.autoconfigure.validation.TransportSecurity;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.worker.CompositeWorkerListener;
import dev.lockstep.worker.InstanceIdentity;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.RecoveryPolicy;
import dev.lockstep.worker.Worker;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.observation.WorkerObservations;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.ProducerFactory;

/**
 * Auto-configuration of the transactional workers of {@code lockstep.workers.*}, built
 * over Spring Boot's Kafka configuration so that {@code spring.kafka.*} and
 * {@code KafkaConnectionDetails} (Testcontainers, the development broker) apply.
 */
@AutoConfiguration(after = { KafkaAutoConfiguration.class, LockstepRegistryAutoConfiguration.class,
		LockstepInstanceAutoConfiguration.class, ApplicationAvailabilityAutoConfiguration.class })
@ConditionalOnClass({ Worker.class, ConsumerFactory.class })
@EnableConfigurationProperties(LockstepProperties.class)
public final class LockstepWorkersAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	KafkaPropertiesValidator lockstepKafkaPropertiesValidator(Environment environment, KafkaProperties kafka) {
		KafkaPropertiesValidator validator = new KafkaPropertiesValidator(new PropertyOrigins(environment));
		validator.checkSpringKafkaMaps(kafka);
		return validator;
	}

	@Bean
	@ConditionalOnMissingBean
	RecoveryPolicy lockstepRecoveryPolicy() {
		return RecoveryPolicy.AS_CLASSIFIED;
	}

	@Bean
	@ConditionalOnMissingBean
	LockstepWorkers lockstepWorkers(LockstepProperties properties, ConsumerFactory<?, ?> consumerFactory,
			ProducerFactory<?, ?> producerFactory, LockstepCodecs codecs, KafkaPropertiesValidator validator,
			RecoveryPolicy recoveryPolicy, BeanFactory beanFactory, ObjectProvider<WorkerListener> listeners,
			Environment environment, ObjectProvider<RegistryClient> registryClient,
			ObjectProvider<WorkerObservations> observations, InstanceIdentity instance) {
		TransportSecurity security = new TransportSecurity(properties.getSecurity().isRequireEncryption(),
				new PropertyOrigins(environment));
		Map<String, Worker> workers = new WorkerFactory(properties, consumerFactory.getConfigurationProperties(),
				producerFactory.getConfigurationProperties(), codecs, validator, security,
				registryClient.getIfAvailable(), beanFactory, recoveryPolicy,
				new CompositeWorkerListener(listeners.orderedStream().toList()),
				observations.getIfAvailable(() -> WorkerObservations.NONE), instance)
			.createAll();
		Set<String> autoStartup = properties.getWorkers()
			.entrySet()
			.stream()
			.filter((entry) -> entry.getValue().isAutoStartup())
			.map(Map.Entry::getKey)
			.collect(Collectors.toSet());
		return new LockstepWorkers(workers, autoStartup);
	}

	@Bean
	@ConditionalOnMissingBean
	WorkerExit lockstepWorkerExit(LockstepWorkers workers, ConfigurableApplicationContext context) {
		return new WorkerExit(workers, context);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(ApplicationAvailability.class)
	WorkerAvailability lockstepWorkerAvailability(LockstepWorkers workers, ApplicationAvailability availability,
			ApplicationEventPublisher publisher) {
		return new WorkerAvailability(workers, availability, publisher);
	}

}
