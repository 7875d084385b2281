package dev.lockstep.autoconfigure.health;

import dev.lockstep.autoconfigure.LockstepInstanceAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepRegistryAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepWorkersAutoConfiguration;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.test.Order;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.application.ReadinessStateHealthIndicator;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.health.autoconfigure.application.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class LockstepReadinessAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockstepInstanceAutoConfiguration.class, KafkaAutoConfiguration.class,
				ApplicationAvailabilityAutoConfiguration.class, LockstepRegistryAutoConfiguration.class,
				LockstepWorkersAutoConfiguration.class, LockstepReadinessAutoConfiguration.class,
				AvailabilityHealthContributorAutoConfiguration.class, AvailabilityProbesAutoConfiguration.class))
		.withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:1",
				"lockstep.workers.normalizer.source-topics=orders", "lockstep.workers.normalizer.destination=normalized",
				"lockstep.workers.normalizer.auto-startup=false", "lockstep.workers.normalizer.value.codec=raw-avro",
				"lockstep.workers.normalizer.value.type=" + Order.class.getName())
		.withBean("normalizer", ValueTransformer.class, () -> (ValueTransformer<Order, Order>) (order) -> order);

	@Test
	void theReadinessProbeWaitsForTheWorkersInPlaceOfSpringBootsIndicator() {
		this.runner.run((context) -> assertThat(context.getBean("readinessStateHealthIndicator"))
			.isInstanceOf(WorkersReadinessStateHealthIndicator.class));
		this.runner.withPropertyValues("management.health.readinessstate.enabled=true")
			.run((context) -> assertThat(context.getBean("readinessStateHealthIndicator"))
				.isInstanceOf(WorkersReadinessStateHealthIndicator.class));
	}

	@Test
	void backsOffForTheApplicationsOwnIndicatorAndWithoutProbes() {
		this.runner.withBean("readinessStateHealthIndicator", HealthIndicator.class, () -> () -> Health.up().build())
			.run((context) -> assertThat(context).doesNotHaveBean(WorkersReadinessStateHealthIndicator.class));
		this.runner.withPropertyValues("management.endpoint.health.probes.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ReadinessStateHealthIndicator.class));
	}

	@Test
	void refusesTrafficWhileAWorkerHasNotJoinedItsGroupWhateverTheApplicationSays() {
		// Nothing listens on port 1: the worker's slot never gets past its start.
		this.runner
			.withPropertyValues("lockstep.workers.normalizer.auto-startup=true",
					"lockstep.workers.normalizer.shutdown-timeout=2s")
			.run((context) -> {
				AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
				HealthIndicator readiness = context.getBean("readinessStateHealthIndicator", HealthIndicator.class);
				assertThat(readiness.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
			});
		this.runner.run((context) -> {
			AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
			assertThat(context.getBean("readinessStateHealthIndicator", HealthIndicator.class).health().getStatus())
				.as("no worker started: the application's state").isEqualTo(Status.UP);
		});
	}

}
