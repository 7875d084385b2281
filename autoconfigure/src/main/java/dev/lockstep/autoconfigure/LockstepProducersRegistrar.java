package dev.lockstep.autoconfigure;

import java.util.Map;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.transaction.KafkaTransactionManager;

/**
 * Registers, per {@code lockstep.producers.<name>}, a {@link KafkaTemplate} bean named
 * {@code <name>} and a {@link KafkaTransactionManager} named
 * {@code <name>TransactionManager}, unless beans of those names already exist.
 */
class LockstepProducersRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware {

	private Environment environment;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		Map<String, LockstepProperties.Producer> producers = Binder.get(this.environment)
			.bind("lockstep.producers", Bindable.mapOf(String.class, LockstepProperties.Producer.class))
			.orElse(Map.of());
		BeanFactory beanFactory = (BeanFactory) registry;
		boolean templateObservations = this.environment.getProperty("spring.kafka.template.observation-enabled",
				Boolean.class, false);
		for (String name : producers.keySet()) {
			if (!registry.containsBeanDefinition(name)) {
				RootBeanDefinition template = new RootBeanDefinition(KafkaTemplate.class);
				template.setInstanceSupplier(() -> {
					KafkaTemplate<Object, Object> kafkaTemplate = new KafkaTemplate<>(
							beanFactory.getBean(LockstepProducers.class).producerFactory(name));
					// As Spring Boot's own template: spring-kafka's observations when asked for.
					kafkaTemplate.setObservationEnabled(templateObservations);
					return kafkaTemplate;
				});
				registry.registerBeanDefinition(name, template);
			}
			String transactionManagerName = name + "TransactionManager";
			if (!registry.containsBeanDefinition(transactionManagerName)) {
				RootBeanDefinition transactionManager = new RootBeanDefinition(KafkaTransactionManager.class);
				transactionManager.setInstanceSupplier(() -> new KafkaTransactionManager<>(
						beanFactory.getBean(LockstepProducers.class).producerFactory(name)));
				registry.registerBeanDefinition(transactionManagerName, transactionManager);
			}
		}
	}

}
