package dev.lockstep.autoconfigure.endpoint;

import dev.lockstep.autoconfigure.LockstepWorkersAutoConfiguration;
import dev.lockstep.worker.LockstepWorkers;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code lockstep} actuator endpoint, when actuator is present and the endpoint is
 * available (exposed and not disabled).
 */
@AutoConfiguration(after = LockstepWorkersAutoConfiguration.class)
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
public final class LockstepEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(LockstepWorkers.class)
	@ConditionalOnAvailableEndpoint
	LockstepEndpoint lockstepEndpoint(LockstepWorkers workers) {
		return new LockstepEndpoint(workers);
	}

}
