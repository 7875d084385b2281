package dev.lockstep.autoconfigure;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.lockstep.autoconfigure.validation.KafkaPropertiesValidator;
import dev.lockstep.autoconfigure.validation.TransportSecurity;
import dev.lockstep.worker.ExactlyOnceClients;
import dev.lockstep.worker.InstanceIdentity;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serializer;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.ProducerFactory;

/**
 * The transactional producer factories of {@code lockstep.producers.*}: Spring Boot's
 * producer configuration, the producer's own properties and codecs, idempotence and
 * {@code acks=all}, and a transactional id prefix (the producer's name unless set).
 */
public class LockstepProducers implements DisposableBean {

	private final LockstepProperties properties;

	private final Map<String, Object> baseProducer;

	private final LockstepCodecs codecs;

	private final KafkaPropertiesValidator validator;

	private final List<DefaultKafkaProducerFactoryCustomizer> customizers;

	private final InstanceIdentity instance;

	private final TransportSecurity security;

	private final Map<String, DefaultKafkaProducerFactory<Object, Object>> factories = new ConcurrentHashMap<>();

	/**
	 * Create the producer factories' source.
	 * @param properties Lockstep's properties
	 * @param baseProducer Spring Boot's producer factory, for connection and security settings
	 * @param codecs the codec factory
	 * @param validator the property checks
	 * @param customizers Spring Boot's producer factory customizers (Kafka client metrics among them)
	 * @param security the transport security check each producer's effective properties pass
	 * @param instance this instance's identity, added to every transactional id prefix
	 */
	public LockstepProducers(LockstepProperties properties, ProducerFactory<?, ?> baseProducer, LockstepCodecs codecs,
			KafkaPropertiesValidator validator, List<DefaultKafkaProducerFactoryCustomizer> customizers,
			TransportSecurity security, InstanceIdentity instance) {
		this.properties = properties;
		this.baseProducer = baseProducer.getConfigurationProperties();
		this.codecs = codecs;
		this.validator = validator;
		this.customizers = List.copyOf(customizers);
		this.security = security;
		this.instance = instance;
	}

	/**
	 * Return the producer factory of a named producer.
	 * @param name the producer's name
	 * @return its transactional producer factory
	 */
	public DefaultKafkaProducerFactory<Object, Object> producerFactory(String name) {
		return this.factories.computeIfAbsent(name, this::create);
	}

	@SuppressWarnings("unchecked")
	private DefaultKafkaProducerFactory<Object, Object> create(String name) {
		LockstepProperties.Producer producer = this.properties.getProducers().get(name);
		String prefix = "lockstep.producers." + name;
		this.validator.checkKnownKeys(prefix + ".properties", producer.getProperties(),
				KafkaPropertiesValidator.PRODUCER_KEYS);
		Map<String, Object> config = new HashMap<>(this.baseProducer);
		config.remove(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG);
		config.remove(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);
		config.putAll(producer.getProperties());
		this.validator.checkTransactionalProducer("producer '" + name + "'", prefix + ".properties", config);
		this.security.checkClient("producer '" + name + "'", prefix + ".properties", "producer", config);
		ExactlyOnceClients.producer(config);
		// The codecs arrive configured: the factory must not re-configure them with the producer's map.
		DefaultKafkaProducerFactory<Object, Object> factory = new DefaultKafkaProducerFactory<>(config,
				(Serializer<Object>) this.codecs.serializer(producer.getKey(), true, prefix + ".key"),
				(Serializer<Object>) this.codecs.serializer(producer.getValue(), false, prefix + ".value"), false);
		// Replicas of one configuration must not share transactional ids: the instance tells them apart.
		factory.setTransactionIdPrefix(this.instance.transactionalIdPrefix(
				(producer.getTransactionIdPrefix() != null) ? producer.getTransactionIdPrefix() : name + "-"));
		this.customizers.forEach((customizer) -> customizer.customize(factory));
		return factory;
	}

	@Override
	public void destroy() {
		this.factories.values().forEach(DefaultKafkaProducerFactory::destroy);
	}

}
