package dev.lockstep.autoconfigure;

import dev.lockstep.autoconfigure.validation.KafkaPropertiesValidator;
import dev.lockstep.autoconfigure.validation.PropertyOrigins;
import dev.lockstep.autoconfigure.validation.TransportSecurity;
import dev.lockstep.worker.InstanceIdentity;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/**
 * Auto-configuration of the named transactional producers of
 * {@code lockstep.producers.*}: a {@link KafkaTemplate} and a transaction manager each,
 * for application code that produces outside a worker. Spring Boot's own
 * {@code kafkaTemplate} is left in place: inject Lockstep's by name.
 */
@AutoConfiguration(after = { KafkaAutoConfiguration.class, LockstepRegistryAutoConfiguration.class,
		LockstepInstanceAutoConfiguration.class, LockstepWorkersAutoConfiguration.class })
@ConditionalOnClass(KafkaTemplate.class)
@EnableConfigurationProperties(LockstepProperties.class)
@Import(LockstepProducersRegistrar.class)
public final class LockstepProducersAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockstepProducers lockstepProducers(LockstepProperties properties, ProducerFactory<?, ?> producerFactory,
			LockstepCodecs codecs, KafkaPropertiesValidator validator,
			ObjectProvider<DefaultKafkaProducerFactoryCustomizer> customizers, Environment environment,
			InstanceIdentity instance) {
		return new LockstepProducers(properties, producerFactory, codecs, validator,
				customizers.orderedStream().toList(), new TransportSecurity(
						properties.getSecurity().isRequireEncryption(), new PropertyOrigins(environment)),
				instance);
	}

}
