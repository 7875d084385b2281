package dev.lockstep.autoconfigure.metrics;

import java.util.Arrays;
import java.util.Locale;

import dev.lockstep.autoconfigure.LockstepRegistryAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepWorkersAutoConfiguration;
import dev.lockstep.worker.InstanceIdentity;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.Worker;
import dev.lockstep.worker.WorkerStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer metrics of Lockstep's workers and schema registry client, when Micrometer
 * and a meter registry are present.
 */
@AutoConfiguration(after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class },
		before = { LockstepWorkersAutoConfiguration.class, LockstepRegistryAutoConfiguration.class })
@ConditionalOnClass({ MeterRegistry.class, MetricsAutoConfiguration.class })
@ConditionalOnBean(MeterRegistry.class)
public final class LockstepMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	MicrometerWorkerListener lockstepWorkerMetrics(MeterRegistry registry) {
		return new MicrometerWorkerListener(registry);
	}

	@Bean
	@ConditionalOnMissingBean
	MicrometerRegistryListener lockstepRegistryMetrics(MeterRegistry registry) {
		return new MicrometerRegistryListener(registry);
	}

	@Bean
	MeterBinder lockstepInstanceMetrics(ObjectProvider<InstanceIdentity> instance) {
		// An info gauge: the identity as tags, so a replica's series can be told from its ids.
		return (registry) -> instance.ifAvailable((identity) -> Gauge.builder("lockstep.instance", () -> 1)
			.description("This instance's identity, part of every slot's transactional id")
			.tag("id", identity.id())
			.tag("kind", identity.kind().name().toLowerCase(Locale.ROOT))
			.register(registry));
	}

	@Bean
	MeterBinder lockstepWorkerStateMetrics(ObjectProvider<LockstepWorkers> workers) {
		return (registry) -> workers.ifAvailable((available) -> {
			for (Worker worker : available.workers()) {
				Gauge.builder("lockstep.worker.state", worker, (w) -> w.state().status().ordinal())
					.description("Worker state: " + Arrays.toString(WorkerStatus.values()) + " by ordinal")
					.tag("worker", worker.settings().name())
					.register(registry);
			}
		});
	}

}
