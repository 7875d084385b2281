package dev.lockstep.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import dev.lockstep.autoconfigure.health.KafkaClusterHealthIndicator;
import dev.lockstep.autoconfigure.health.LockstepHealthContributorAutoConfiguration;
import dev.lockstep.autoconfigure.health.LockstepWorkersHealthIndicator;
import dev.lockstep.autoconfigure.health.SchemaRegistryHealthIndicator;
import dev.lockstep.autoconfigure.metrics.LockstepMetricsAutoConfiguration;
import dev.lockstep.autoconfigure.metrics.MicrometerWorkerListener;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.RegistryListener;
import dev.lockstep.worker.FailureCategory;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.WorkerStatus;
import dev.lockstep.worker.test.Order;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class LockstepObservabilityAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockstepInstanceAutoConfiguration.class, KafkaAutoConfiguration.class, LockstepRegistryAutoConfiguration.class,
				LockstepWorkersAutoConfiguration.class, LockstepMetricsAutoConfiguration.class,
				LockstepHealthContributorAutoConfiguration.class))
		.withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:1", "lockstep.workers.normalizer.source-topics=in",
				"lockstep.workers.normalizer.destination=out", "lockstep.workers.normalizer.auto-startup=false",
				"lockstep.workers.normalizer.value.codec=raw-avro",
				"lockstep.workers.normalizer.value.type=" + Order.class.getName())
		.withBean("normalizer", ValueTransformer.class, () -> (ValueTransformer<Order, Order>) (order) -> order);

	@Test
	void workerMetricsNeedAMeterRegistry() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(MicrometerWorkerListener.class));
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> assertThat(context).hasSingleBean(MicrometerWorkerListener.class));
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(MicrometerWorkerListener.class));
	}

	@Test
	void everyMeterExistsAtZeroForEveryTagValueBeforeAnyRecord() {
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("lockstep.registry.url=http://127.0.0.1:1")
			.run((context) -> {
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				for (String outcome : List.of("processed", "tombstone", "quarantined", "rejected")) {
					assertThat(meters.get("lockstep.worker.records").tag("worker", "normalizer").tag("outcome", outcome)
						.counter().count()).isZero();
				}
				for (String result : List.of("committed", "aborted")) {
					assertThat(meters.get("lockstep.worker.transactions").tag("result", result).counter().count())
						.isZero();
				}
				for (FailureCategory category : FailureCategory.values()) {
					assertThat(meters.get("lockstep.worker.recoveries")
						.tag("category", category.name().toLowerCase(Locale.ROOT))
						.counter()
						.count()).isZero();
				}
				assertThat(meters.get("lockstep.worker.records.out").counter().count()).isZero();
				assertThat(meters.get("lockstep.worker.batches").counter().count()).isZero();
				assertThat(meters.get("lockstep.worker.transaction.duration").timer().count()).isZero();
				assertThat(meters.get("lockstep.worker.commit.duration").timer().count()).isZero();
				for (String operation : RegistryListener.OPERATIONS) {
					assertThat(meters.get("lockstep.registry.requests").tag("operation", operation).timers())
						.hasSize(RegistryListener.OUTCOMES.size());
				}
				assertThat(meters.get("lockstep.registry.cache").counters()).hasSize(2 * RegistryListener.CACHES.size())
					.allSatisfy((counter) -> assertThat(counter.count()).isZero());
			});
	}

	@Test
	void theInstancesIdentityIsAGaugesTags() {
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("lockstep.instance-id=eu-1")
			.run((context) -> {
				MeterRegistry meters = new SimpleMeterRegistry();
				context.getBean("lockstepInstanceMetrics", MeterBinder.class).bindTo(meters);
				assertThat(meters.get("lockstep.instance").tag("id", "eu-1").tag("kind", "configured").gauge().value())
					.isEqualTo(1);
			});
	}

	@Test
	void registryClientReportsToMicrometer() {
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("lockstep.registry.url=http://127.0.0.1:1", "lockstep.registry.retries=0",
					"lockstep.registry.timeout=1s")
			.run((context) -> {
				RegistryClient client = context.getBean(RegistryClient.class);
				try {
					client.schemaById(1);
				}
				catch (RegistryException ex) {
					// Nothing listens on port 1: a transport error, counted below.
				}
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.get("lockstep.registry.requests").tag("operation", "schema-by-id")
					.tag("outcome", "transport-error").timer().count()).isEqualTo(1);
				assertThat(meters.get("lockstep.registry.cache").tag("cache", "schemas").tag("result", "miss")
					.counter().count()).isEqualTo(1);
			});
	}

	@Test
	void healthIndicatorsAreContributedAndCanBeDisabled() {
		this.runner.run((context) -> {
			assertThat(context).hasBean("kafkaHealthIndicator").hasBean("lockstepHealthIndicator")
				.doesNotHaveBean(SchemaRegistryHealthIndicator.class);
			assertThat(context.getBean(KafkaClusterHealthIndicator.class)).isNotNull();
		});
		this.runner.withPropertyValues("lockstep.registry.url=http://127.0.0.1:8081")
			.run((context) -> assertThat(context).hasBean("schemaRegistryHealthIndicator"));
		this.runner.withPropertyValues("management.health.lockstep.enabled=false", "management.health.kafka.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockstepWorkersHealthIndicator.class)
				.doesNotHaveBean(KafkaClusterHealthIndicator.class));
	}

	@Test
	void workerWhoseProducerCannotInitialiseIsNeverUp() {
		this.runner
			.withPropertyValues("lockstep.workers.normalizer.auto-startup=true",
					"lockstep.workers.normalizer.producer.max.block.ms=500",
					"lockstep.workers.normalizer.shutdown-timeout=2s")
			.run((context) -> {
				LockstepWorkers workers = context.getBean(LockstepWorkers.class);
				await().until(() -> !workers.worker("normalizer").state().slots().get(0).recentErrors().isEmpty());
				assertThat(workers.worker("normalizer").state().status()).isEqualTo(WorkerStatus.STARTING);
				assertThat(context.getBean(LockstepWorkersHealthIndicator.class).health().getStatus())
					.isEqualTo(Status.UNKNOWN);
			});
	}

	@Test
	void workerThatHasNotStartedIsUnknownAndAnUnreachableClusterIsDown() {
		this.runner.run((context) -> {
			LockstepWorkersHealthIndicator workers = new LockstepWorkersHealthIndicator(
					context.getBean(LockstepWorkers.class));
			assertThat(workers.health().getStatus()).isEqualTo(Status.UNKNOWN);
			KafkaClusterHealthIndicator kafka = context.getBean(KafkaClusterHealthIndicator.class);
			// The check runs in the background: every request answers at once, UNKNOWN until
			// the first check (its own timeout 5 s) has completed.
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				long started = System.nanoTime();
				Status status = kafka.health().getStatus();
				assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
				assertThat(status).isEqualTo(Status.DOWN);
			});
		});
	}

}
