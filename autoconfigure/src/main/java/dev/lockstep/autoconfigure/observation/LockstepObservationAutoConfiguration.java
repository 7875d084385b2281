package dev.lockstep.autoconfigure.observation;

import dev.lockstep.autoconfigure.LockstepProperties;
import dev.lockstep.worker.ProcessObservationConvention;
import dev.lockstep.worker.TraceContextPropagator;
import dev.lockstep.worker.TransactionObservationConvention;
import dev.lockstep.worker.WorkerObservations;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.propagation.Propagator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of the workers' observations ({@code lockstep.worker.process} per
 * record, {@code lockstep.worker.transaction} per transaction) over the application's
 * {@link ObservationRegistry}, and of the propagator that writes a record's trace context
 * into its outputs when Micrometer Tracing is configured. {@code lockstep.observations.enabled}
 * switches them; by default they are on when Micrometer Tracing is (a tracer's
 * propagator exists), so that a worker without tracing creates nothing per record.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
		"org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration",
		"org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration",
		"org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration" })
@ConditionalOnClass({ ObservationRegistry.class, WorkerObservations.class })
@EnableConfigurationProperties(LockstepProperties.class)
public final class LockstepObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	WorkerObservations lockstepWorkerObservations(LockstepProperties properties,
			ObjectProvider<ObservationRegistry> registry, ObjectProvider<TraceContextPropagator> propagator,
			ObjectProvider<ProcessObservationConvention> processConvention,
			ObjectProvider<TransactionObservationConvention> transactionConvention) {
		ObservationRegistry observationRegistry = registry.getIfUnique();
		TraceContextPropagator tracing = propagator.getIfUnique();
		Boolean enabled = properties.getObservations().getEnabled();
		boolean on = (enabled != null) ? enabled : tracing != null;
		if (!on || observationRegistry == null) {
			return WorkerObservations.NONE;
		}
		return new WorkerObservations(observationRegistry, (tracing != null) ? tracing : TraceContextPropagator.NONE,
				processConvention.getIfUnique(), transactionConvention.getIfUnique());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Propagator.class)
	static class TracingConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(Propagator.class)
		TraceContextPropagator lockstepTraceContextPropagator(Propagator propagator) {
			return new MicrometerTracingPropagator(propagator);
		}

	}

}
