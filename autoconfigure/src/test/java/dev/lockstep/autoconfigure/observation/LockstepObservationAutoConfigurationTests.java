package dev.lockstep.autoconfigure.observation;

import dev.lockstep.autoconfigure.LockstepInstanceAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepListenerAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepProducersAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepRegistryAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepWorkersAutoConfiguration;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.observation.RecordTracing;
import dev.lockstep.worker.observation.WorkerObservations;
import dev.lockstep.worker.test.Order;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which observations the auto-configuration sets up: records traced with Micrometer
 * Tracing, transactions observed, spring-kafka's own observations as Spring Boot's
 * properties say.
 */
class LockstepObservationAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockstepInstanceAutoConfiguration.class, KafkaAutoConfiguration.class, LockstepRegistryAutoConfiguration.class,
				LockstepObservationAutoConfiguration.class, LockstepWorkersAutoConfiguration.class,
				LockstepProducersAutoConfiguration.class, LockstepListenerAutoConfiguration.class))
		.withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:1", "lockstep.workers.normalizer.source-topics=in",
				"lockstep.workers.normalizer.destination=out", "lockstep.workers.normalizer.auto-startup=false",
				"lockstep.workers.normalizer.value.codec=raw-avro",
				"lockstep.workers.normalizer.value.type=" + Order.class.getName(),
				"lockstep.producers.orders.value.codec=raw-avro",
				"lockstep.producers.orders.value.type=" + Order.class.getName())
		.withBean("normalizer", ValueTransformer.class, () -> (ValueTransformer<Order, Order>) (order) -> order);

	private final ApplicationContextRunner withRegistry = this.runner.withBean(ObservationRegistry.class,
			LockstepObservationAutoConfigurationTests::registry);

	private final ApplicationContextRunner withTracing = this.withRegistry.withBean(Tracer.class, () -> Tracer.NOOP)
		.withBean(Propagator.class, () -> Propagator.NOOP);

	@Test
	void withMicrometerTracingRecordsAreTracedAndTransactionsObserved() {
		this.withTracing.run((context) -> {
			assertThat(context).getBean(RecordTracing.class).isInstanceOf(MicrometerRecordTracing.class);
			assertObserved(context, true);
		});
	}

	@Test
	void anObservationRegistryAloneObservesNothing() {
		this.withRegistry.run((context) -> {
			assertThat(context).doesNotHaveBean(RecordTracing.class);
			assertObserved(context, false);
		});
	}

	@Test
	void withoutMicrometerTracingOnTheClasspathNothingIsObserved() {
		this.withTracing.withClassLoader(new FilteredClassLoader(Tracer.class)).run((context) -> {
			assertThat(context).doesNotHaveBean(RecordTracing.class);
			assertObserved(context, false);
		});
	}

	@Test
	void enabledWithoutTracingObservesTransactionsAndTracesNoRecord() {
		this.withRegistry.withPropertyValues("lockstep.observations.enabled=true").run((context) -> {
			assertThat(context).doesNotHaveBean(RecordTracing.class);
			assertObserved(context, true);
		});
	}

	@Test
	void disabledObservesNothingEvenWithTracing() {
		this.withTracing.withPropertyValues("lockstep.observations.enabled=false")
			.run((context) -> assertObserved(context, false));
	}

	@Test
	void withoutAnObservationRegistryOrTracingNothingIsObservedEvenWhenEnabled() {
		this.runner.withPropertyValues("lockstep.observations.enabled=true")
			.run((context) -> assertObserved(context, false));
	}

	@Test
	void aUserDefinedWorkerObservationsWins() {
		WorkerObservations own = new WorkerObservations(registry(), RecordTracing.NONE);
		this.withTracing.withBean(WorkerObservations.class, () -> own)
			.run((context) -> assertThat(context).getBean(WorkerObservations.class).isSameAs(own));
	}

	@Test
	void aUserDefinedRecordTracingWins() {
		RecordTracing own = (record, worker, groupId) -> dev.lockstep.worker.observation.RecordTrace.NONE;
		this.withTracing.withBean(RecordTracing.class, () -> own)
			.run((context) -> assertThat(context).getBean(RecordTracing.class).isSameAs(own));
	}

	@Test
	void theSamplingIsTheTracerProvidersSampler() {
		this.withTracing.withBean(SdkTracerProvider.class, () -> tracerProvider(Sampler.parentBased(Sampler.traceIdRatioBased(0.1))))
			.run((context) -> assertThat(context.getBean(TracerSampling.class).parentBased()).isTrue());
		this.withTracing.withBean(SdkTracerProvider.class, () -> tracerProvider(Sampler.traceIdRatioBased(0.1)))
			.run((context) -> assertThat(context.getBean(TracerSampling.class).parentBased()).isFalse());
		this.withTracing.run((context) -> assertThat(context).doesNotHaveBean(TracerSampling.class));
		this.withTracing.withClassLoader(new FilteredClassLoader("io.opentelemetry.sdk"))
			.run((context) -> assertThat(context).hasSingleBean(RecordTracing.class)
				.doesNotHaveBean(TracerSampling.class));
	}

	private static SdkTracerProvider tracerProvider(Sampler sampler) {
		return SdkTracerProvider.builder().setSampler(sampler).build();
	}

	@Test
	void springKafkasObservationsFollowSpringBootsPropertiesNotLocksteps() {
		this.withTracing.run((context) -> assertSpringKafkaObserved(context, false));
		this.withTracing
			.withPropertyValues("spring.kafka.template.observation-enabled=true",
					"spring.kafka.listener.observation-enabled=true", "lockstep.observations.enabled=false")
			.run((context) -> assertSpringKafkaObserved(context, true));
	}

	/** A registry with a handler: without one, a registry is a no-op. */
	private static ObservationRegistry registry() {
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler((context) -> true);
		return registry;
	}

	private static void assertObserved(AssertableApplicationContext context, boolean observed) {
		assertThat(context).hasNotFailed();
		assertThat(context.getBean(WorkerObservations.class).isEnabled()).isEqualTo(observed);
	}

	private static void assertSpringKafkaObserved(AssertableApplicationContext context, boolean observed) {
		assertThat(context).hasNotFailed();
		assertThat(ReflectionTestUtils.getField(context.getBean("orders", KafkaTemplate.class), "observationEnabled"))
			.isEqualTo(observed);
		ContainerProperties listener = context
			.getBean("lockstepListenerContainerFactory", ConcurrentKafkaListenerContainerFactory.class)
			.getContainerProperties();
		assertThat(listener.isObservationEnabled()).isEqualTo(observed);
		assertThat(listener.isRecordObservationsInBatch()).isEqualTo(observed);
	}

}
