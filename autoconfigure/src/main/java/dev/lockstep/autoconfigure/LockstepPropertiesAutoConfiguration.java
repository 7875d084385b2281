package dev.lockstep.autoconfigure;

import dev.lockstep.autoconfigure.validation.UnknownPropertiesCheck;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Refuses {@code lockstep.*} properties that bind to nothing in {@link LockstepProperties},
 * before any bean is created: a mistyped key such as
 * {@code lockstep.security.require-encrytion} stops start-up with the nearest valid key
 * instead of running with the defaults.
 */
@AutoConfiguration(before = LockstepRegistryAutoConfiguration.class)
public final class LockstepPropertiesAutoConfiguration {

	@Bean
	static BeanFactoryPostProcessor lockstepUnknownPropertiesCheck(Environment environment) {
		return (beanFactory) -> new UnknownPropertiesCheck("lockstep", LockstepProperties.class).check(environment);
	}

}
