package dev.lockstep.autoconfigure.endpoint;

import dev.lockstep.autoconfigure.LockstepWorkersAutoConfiguration;
import dev.lockstep.worker.InstanceIdentity;
import dev.lockstep.worker.LockstepWorkers;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.info.ConditionalOnEnabledInfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code lockstep} actuator endpoint, when actuator is present and the endpoint is
 * available (exposed and not disabled), and the instance's identity in {@code /actuator/info}
 * ({@code management.info.lockstep.enabled}).
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

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(InstanceIdentity.class)
	@ConditionalOnEnabledInfoContributor("lockstep")
	LockstepInfoContributor lockstepInfoContributor(InstanceIdentity instance) {
		return new LockstepInfoContributor(instance);
	}

}
