package dev.lockstep.autoconfigure;

import java.time.Duration;

import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.autoconfigure.validation.LockstepConfigurationFailureAnalyzerAccess;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.WorkerSettings;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No wait inside an open worker transaction may outlast the transaction timeout: the
 * defaults fit, and a worker whose max interval plus longest single wait ({@code max.block.ms},
 * or the registry client's worst case when its codecs use the registry) does not stay below
 * its transaction timeout is refused at start-up.
 */
class LockstepTransactionWaitTests {

	private final ApplicationContextRunner withWorker = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockstepInstanceAutoConfiguration.class, KafkaAutoConfiguration.class, LockstepPropertiesAutoConfiguration.class,
				LockstepRegistryAutoConfiguration.class, LockstepWorkersAutoConfiguration.class))
		.withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:1", "lockstep.workers.normalizer.source-topics=in",
				"lockstep.workers.normalizer.destination=out", "lockstep.workers.normalizer.auto-startup=false",
				"lockstep.workers.normalizer.key.codec=string", "lockstep.workers.normalizer.value.codec=string")
		.withBean("normalizer", ValueTransformer.class, () -> (ValueTransformer<Object, Object>) (value) -> value);

	private final ApplicationContextRunner withRegistryWorker = this.withWorker.withPropertyValues(
			"lockstep.registry.url=http://127.0.0.1:1", "lockstep.workers.normalizer.value.codec=registry-avro");

	@Test
	void workerProducerBlocksAtMostHalfOfWhatTheTransactionTimeoutLeavesUnlessConfigured() {
		this.withWorker.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(settings(context.getBean(LockstepWorkers.class)).producerMaxBlock())
				.isEqualTo(Duration.ofMillis(4_950));
		});
		this.withWorker
			.withPropertyValues("lockstep.workers.normalizer.transaction.max-interval=6s",
					"lockstep.workers.normalizer.transaction.timeout=10s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(settings(context.getBean(LockstepWorkers.class)).producerMaxBlock())
					.isEqualTo(Duration.ofMillis(2_000));
			});
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.producer.max.block.ms=3000")
			.run((context) -> assertThat(settings(context.getBean(LockstepWorkers.class)).producerMaxBlock())
				.isEqualTo(Duration.ofMillis(3_000)));
	}

	@Test
	void registryDefaultsFitTheDefaultTransactionTimeout() {
		this.withRegistryWorker.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(LockstepProperties.class).getRegistry().getTimeout()).hasSeconds(2);
		});
	}

	@Test
	void registryWorstCaseBeyondTheTransactionTimeoutIsRefused() {
		// The former default: 3 attempts x 10 s + back-offs of 100 and 200 ms.
		this.withRegistryWorker.withPropertyValues("lockstep.registry.timeout=10s")
			.run((context) -> assertRefused(context.getStartupFailure(), "lockstep.registry.timeout", "30.4 s",
					"30.3 s", "3 attempts x 1 URL(s) x timeout 10000 ms", "transaction timeout of 10 s"));
		// Failover multiplies it: 3 attempts x 2 URLs x 2 s + 300 ms.
		this.withRegistryWorker.withPropertyValues("lockstep.registry.url=http://127.0.0.1:1,http://127.0.0.1:2")
			.run((context) -> assertRefused(context.getStartupFailure(), "lockstep.registry.timeout", "12.4 s",
					"12.3 s"));
		// The same registry is no wait for a worker whose codecs do not use it.
		this.withWorker.withPropertyValues("lockstep.registry.url=http://127.0.0.1:1", "lockstep.registry.timeout=10s")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void theWorkersChaptersFailoverExampleFits() {
		// 2 attempts x 2 URLs x 2 s + 100 ms = 8.1 s, + 100 ms max interval: below 10 s.
		this.withRegistryWorker
			.withPropertyValues("lockstep.registry.url=http://127.0.0.1:1,http://127.0.0.1:2",
					"lockstep.registry.timeout=2s", "lockstep.registry.retries=1")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void configuredMaxBlockBeyondTheTransactionTimeoutIsRefused() {
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.producer.max.block.ms=60000")
			.run((context) -> assertRefused(context.getStartupFailure(),
					"lockstep.workers.normalizer.producer.max.block.ms", "60.1 s", "max.block.ms of 60 s",
					"transaction timeout of 10 s"));
		this.withWorker.withPropertyValues("spring.kafka.producer.properties.max.block.ms=9950")
			.run((context) -> assertRefused(context.getStartupFailure(),
					"spring.kafka.producer.properties.max.block.ms", "10.05 s"));
	}

	private static WorkerSettings settings(LockstepWorkers workers) {
		return workers.worker("normalizer").settings();
	}

	private static void assertRefused(Throwable failure, String property, String... reason) {
		LockstepConfigurationException refused = LockstepConfigurationFailureAnalyzerAccess.refusalIn(failure);
		assertThat(refused.getProperty()).isEqualTo(property);
		assertThat(refused.getReason()).contains(reason);
		FailureAnalysis analysis = new LockstepConfigurationFailureAnalyzerAccess().analyze(failure);
		assertThat(analysis.getAction()).contains("transaction.timeout");
	}

}
