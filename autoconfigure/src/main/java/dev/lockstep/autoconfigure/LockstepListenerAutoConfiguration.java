package dev.lockstep.autoconfigure;

import java.util.HashMap;
import java.util.Map;

import dev.lockstep.autoconfigure.validation.PropertyOrigins;
import dev.lockstep.autoconfigure.validation.TransportSecurity;
import dev.lockstep.worker.ExactlyOnceClients;
import dev.lockstep.worker.InstanceIdentity;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.transaction.KafkaTransactionManager;

/**
 * A transactional batch listener container factory, {@code lockstepListenerContainerFactory},
 * for {@code @KafkaListener} methods: {@code read_committed}, auto-commit off, and the
 * consumed offsets committed in the container's Kafka transaction. Select it with
 * {@code @KafkaListener(containerFactory = "lockstepListenerContainerFactory")}.
 */
@AutoConfiguration(after = { KafkaAutoConfiguration.class, LockstepInstanceAutoConfiguration.class })
@ConditionalOnClass(EnableKafka.class)
@ConditionalOnBean(ConcurrentKafkaListenerContainerFactoryConfigurer.class)
@EnableConfigurationProperties(LockstepProperties.class)
public final class LockstepListenerAutoConfiguration {

	/**
	 * The listener containers' transactional producer factory: a bean so that it is closed
	 * with the context, but not a default candidate, so injecting a ProducerFactory by type
	 * still finds Spring Boot's.
	 */
	@Bean(defaultCandidate = false)
	@ConditionalOnMissingBean(name = "lockstepListenerProducerFactory")
	DefaultKafkaProducerFactory<Object, Object> lockstepListenerProducerFactory(ProducerFactory<?, ?> producerFactory,
			LockstepProperties properties, ObjectProvider<DefaultKafkaProducerFactoryCustomizer> customizers,
			Environment environment, InstanceIdentity instance) {
		Map<String, Object> producer = new HashMap<>(producerFactory.getConfigurationProperties());
		transportSecurity(properties, environment).checkClient("the listener containers' producer", null, "producer",
				producer);
		ExactlyOnceClients.producer(producer);
		DefaultKafkaProducerFactory<Object, Object> transactional = new DefaultKafkaProducerFactory<>(producer);
		// Replicas of one configuration must not share transactional ids: the instance tells them apart.
		transactional.setTransactionIdPrefix(
				instance.transactionalIdPrefix(properties.getListener().getTransactionIdPrefix()));
		customizers.orderedStream().forEach((customizer) -> customizer.customize(transactional));
		return transactional;
	}

	@Bean
	@ConditionalOnMissingBean(name = "lockstepListenerContainerFactory")
	ConcurrentKafkaListenerContainerFactory<Object, Object> lockstepListenerContainerFactory(
			ConcurrentKafkaListenerContainerFactoryConfigurer configurer, ConsumerFactory<?, ?> consumerFactory,
			@Qualifier("lockstepListenerProducerFactory") ProducerFactory<Object, Object> transactionalProducerFactory,
			ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers, LockstepProperties properties,
			Environment environment) {
		Map<String, Object> consumer = new HashMap<>(consumerFactory.getConfigurationProperties());
		transportSecurity(properties, environment).checkClient("the listener containers' consumer", null, "consumer",
				consumer);
		ExactlyOnceClients.consumer(consumer);
		ConcurrentKafkaListenerContainerFactory<Object, Object> factory = new ConcurrentKafkaListenerContainerFactory<>();
		DefaultKafkaConsumerFactory<Object, Object> consumerFactoryForListeners = new DefaultKafkaConsumerFactory<>(
				consumer);
		customizers.orderedStream().forEach((customizer) -> customizer.customize(consumerFactoryForListeners));
		configurer.configure(factory, consumerFactoryForListeners);
		factory.setBatchListener(true);
		factory.getContainerProperties()
			.setKafkaAwareTransactionManager(new KafkaTransactionManager<>(transactionalProducerFactory));
		// The configurer applied spring.kafka.listener.observation-enabled; a batch listener
		// creates spring-kafka's observations only per record of the batch.
		factory.getContainerProperties()
			.setRecordObservationsInBatch(factory.getContainerProperties().isObservationEnabled());
		return factory;
	}

	private static TransportSecurity transportSecurity(LockstepProperties properties, Environment environment) {
		return new TransportSecurity(properties.getSecurity().isRequireEncryption(), new PropertyOrigins(environment));
	}

}
