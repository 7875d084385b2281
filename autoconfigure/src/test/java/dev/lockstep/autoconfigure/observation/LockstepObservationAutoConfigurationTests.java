package dev.lockstep.autoconfigure.observation;

import dev.lockstep.autoconfigure.LockstepListenerAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepProducersAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepRegistryAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepWorkersAutoConfiguration;
import dev.lockstep.worker.TraceContextPropagator;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.WorkerObservations;
import dev.lockstep.worker.test.Order;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.propagation.Propagator;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;

class LockstepObservationAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, LockstepRegistryAutoConfiguration.class,
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

	private final ApplicationContextRunner withTracing = this.withRegistry.withBean(Propagator.class,
			() -> Propagator.NOOP);

	@Test
	void withMicrometerTracingWorkersProducersAndListenersAreObserved() {
		this.withTracing.run((context) -> {
			assertThat(context).getBean(TraceContextPropagator.class).isInstanceOf(MicrometerTracingPropagator.class);
			assertObserved(context, true);
		});
	}

	@Test
	void anObservationRegistryAloneObservesNothing() {
		this.withRegistry.run((context) -> {
			assertThat(context).doesNotHaveBean(TraceContextPropagator.class);
			assertObserved(context, false);
		});
	}

	@Test
	void withoutMicrometerTracingOnTheClasspathNothingIsObserved() {
		this.withTracing.withClassLoader(new FilteredClassLoader(Propagator.class)).run((context) -> {
			assertThat(context).doesNotHaveBean(TraceContextPropagator.class);
			assertObserved(context, false);
		});
	}

	@Test
	void enabledObservesWithoutTracing() {
		this.withRegistry.withPropertyValues("lockstep.observations.enabled=true")
			.run((context) -> assertObserved(context, true));
	}

	@Test
	void disabledObservesNothingEvenWithTracing() {
		this.withTracing.withPropertyValues("lockstep.observations.enabled=false")
			.run((context) -> assertObserved(context, false));
	}

	@Test
	void withoutAnObservationRegistryNothingIsObservedEvenWhenEnabled() {
		this.runner.withPropertyValues("lockstep.observations.enabled=true")
			.run((context) -> assertObserved(context, false));
	}

	@Test
	void aUserDefinedWorkerObservationsWins() {
		WorkerObservations own = new WorkerObservations(registry(), TraceContextPropagator.NONE);
		this.withTracing.withBean(WorkerObservations.class, () -> own)
			.run((context) -> assertThat(context).getBean(WorkerObservations.class).isSameAs(own));
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
		assertThat(ReflectionTestUtils.getField(context.getBean("orders", KafkaTemplate.class), "observationEnabled"))
			.isEqualTo(observed);
		assertThat(context.getBean("lockstepListenerContainerFactory", ConcurrentKafkaListenerContainerFactory.class)
			.getContainerProperties()
			.isObservationEnabled()).isEqualTo(observed);
	}

}
