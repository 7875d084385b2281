package dev.lockstep.autoconfigure.observation;

import dev.lockstep.autoconfigure.LockstepProperties;
import dev.lockstep.worker.observation.RecordTracing;
import dev.lockstep.worker.observation.TransactionObservationConvention;
import dev.lockstep.worker.observation.WorkerObservations;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
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
 * Auto-configuration of the workers' observations: the records' traces, when Micrometer
 * Tracing is configured ({@link MicrometerRecordTracing}, a span only for records the
 * tracer samples), and one {@code lockstep.worker.transaction} observation per
 * transaction over the application's {@link ObservationRegistry}.
 * {@code lockstep.observations.enabled} switches them; by default they are on when
 * Micrometer Tracing is, so that a worker without tracing creates nothing.
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
			ObjectProvider<ObservationRegistry> registry, ObjectProvider<RecordTracing> tracing,
			ObjectProvider<TransactionObservationConvention> transactionConvention) {
		RecordTracing recordTracing = tracing.getIfUnique();
		Boolean enabled = properties.getObservations().getEnabled();
		boolean on = (enabled != null) ? enabled : recordTracing != null;
		if (!on) {
			return WorkerObservations.NONE;
		}
		return new WorkerObservations(registry.getIfUnique(() -> ObservationRegistry.NOOP),
				(recordTracing != null) ? recordTracing : RecordTracing.NONE, transactionConvention.getIfUnique());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Tracer.class)
	static class TracingConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean({ Tracer.class, Propagator.class })
		RecordTracing lockstepRecordTracing(Tracer tracer, Propagator propagator, LockstepProperties properties,
				ObjectProvider<TracerSampling> sampling) {
			LockstepProperties.Observations observations = properties.getObservations();
			return new MicrometerRecordTracing(tracer, propagator,
					sampling.getIfAvailable(() -> TracerSampling.UNKNOWN).parentBased(),
					observations.isCorrelateUnsampledLogs(), observations.getNewTraces(),
					observations.getSampledParents());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.opentelemetry.sdk.trace.SdkTracerProvider")
	static class OpenTelemetrySamplingConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(io.opentelemetry.sdk.trace.SdkTracerProvider.class)
		TracerSampling lockstepOpenTelemetrySampling(io.opentelemetry.sdk.trace.SdkTracerProvider tracerProvider) {
			// The sampler the tracer uses, whoever built it (a Sampler bean may not be it).
			return TracerSampling.ofDescription(tracerProvider.getSampler().getDescription());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "brave.Tracing")
	static class BraveSamplingConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(type = "brave.Tracing")
		TracerSampling lockstepBraveSampling() {
			// Brave's sampler decides new traces only: an extracted decision is always kept.
			return TracerSampling.PARENT_BASED;
		}

	}

}
