package dev.lockstep.autoconfigure.health;

import dev.lockstep.autoconfigure.LockstepWorkersAutoConfiguration;
import dev.lockstep.worker.LockstepWorkers;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.health.application.ReadinessStateHealthIndicator;
import org.springframework.boot.health.autoconfigure.application.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The readiness probe of an application with workers: {@code /actuator/health/readiness}
 * is UP only once every worker is ready, never before and then down again
 * ({@link WorkersReadinessStateHealthIndicator}, in place of Spring Boot's indicator of the
 * same name).
 */
// Before both of Spring Boot's configurations that define the indicator by this name.
@AutoConfiguration(after = LockstepWorkersAutoConfiguration.class,
		before = { AvailabilityProbesAutoConfiguration.class, AvailabilityHealthContributorAutoConfiguration.class })
@ConditionalOnClass(value = ReadinessStateHealthIndicator.class,
		name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBooleanProperty(name = "management.endpoint.health.probes.enabled", matchIfMissing = true)
public final class LockstepReadinessAutoConfiguration {

	@Bean
	@ConditionalOnBean({ LockstepWorkers.class, ApplicationAvailability.class })
	@ConditionalOnMissingBean(name = "readinessStateHealthIndicator")
	WorkersReadinessStateHealthIndicator readinessStateHealthIndicator(ApplicationAvailability availability,
			LockstepWorkers workers) {
		return new WorkersReadinessStateHealthIndicator(availability, workers);
	}

}
