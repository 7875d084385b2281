package dev.lockstep.autoconfigure;

import dev.lockstep.autoconfigure.validation.KafkaPropertiesValidator;
import dev.lockstep.autoconfigure.validation.PropertyOrigins;
import dev.lockstep.autoconfigure.validation.UnknownPropertiesCheck;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Checks Lockstep's properties before any bean is created, so that a mistake stops
 * start-up before the development broker starts or any client is built: refuses
 * {@code lockstep.*} properties that bind to nothing in {@link LockstepProperties} (a
 * mistyped key such as {@code lockstep.security.require-encrytion} is reported with the
 * nearest valid key instead of running with the defaults), and worker declarations that
 * cannot work (no source topic or destination, a quarantine policy without its topic, a
 * value out of range, two workers sharing a transactional id base).
 */
@AutoConfiguration(before = LockstepRegistryAutoConfiguration.class)
public final class LockstepPropertiesAutoConfiguration {

	@Bean
	static BeanFactoryPostProcessor lockstepPropertiesCheck(Environment environment) {
		return (beanFactory) -> {
			// lockstep.test.* configures lockstep-test-support (its test brokers), not the application.
			new UnknownPropertiesCheck("lockstep", LockstepProperties.class, "lockstep.test").check(environment);
			LockstepProperties properties = Binder.get(environment)
				.bindOrCreate("lockstep", LockstepProperties.class);
			WorkerDeclarations.check(properties, new KafkaPropertiesValidator(new PropertyOrigins(environment)));
		};
	}

}
