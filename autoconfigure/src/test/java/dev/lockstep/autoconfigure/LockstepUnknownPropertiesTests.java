package dev.lockstep.autoconfigure;

import java.util.Map;

import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.autoconfigure.validation.LockstepConfigurationFailureAnalyzerAccess;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.ValueTransformer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code lockstep.*} key that binds to nothing stops start-up, naming the nearest valid
 * key, whatever the property source; map keys (worker, producer, topic names) are free.
 */
class LockstepUnknownPropertiesTests {

	/** Every Lockstep auto-configuration the starter registers, as an application gets them. */
	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class))
		.withConfiguration(AutoConfigurations.of(lockstepAutoConfigurations()))
		.withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:1", "spring.kafka.admin.auto-create=false");

	private final ApplicationContextRunner withWorker = this.runner
		.withBean("normalizer", ValueTransformer.class, () -> (ValueTransformer<String, String>) (value) -> value)
		.withPropertyValues("lockstep.workers.normalizer.source-topics=orders",
				"lockstep.workers.normalizer.destination=normalized", "lockstep.workers.normalizer.auto-startup=false",
				"lockstep.workers.normalizer.key.codec=string", "lockstep.workers.normalizer.value.codec=string");

	@Test
	void mistypedSecuritySettingStopsStartUpNamingTheIntendedKey() {
		this.runner.withPropertyValues("lockstep.security.require-encrytion=true")
			.run((context) -> assertRefused(context.getStartupFailure(), "lockstep.security.require-encrytion",
					"lockstep.security.require-encryption"));
	}

	@Test
	void mistypedInvalidInputPolicyStopsStartUpNamingTheIntendedKey() {
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.invalid-input.polcy=quarantine")
			.run((context) -> assertRefused(context.getStartupFailure(),
					"lockstep.workers.normalizer.invalid-input.polcy",
					"lockstep.workers.normalizer.invalid-input.policy"));
	}

	@Test
	void mistypedTransactionIntervalStopsStartUpNamingTheIntendedKey() {
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.transaction.max-intervall=50ms")
			.run((context) -> assertRefused(context.getStartupFailure(),
					"lockstep.workers.normalizer.transaction.max-intervall",
					"lockstep.workers.normalizer.transaction.max-interval"));
	}

	@Test
	void keysOfTheTestSupportAreLeftToIt() {
		this.withWorker
			.withPropertyValues("lockstep.test.broker=process", "lockstep.test.kafka-release.3.9=/tmp/server.classpath")
			.run((context) -> assertThat(context).hasNotFailed());
		this.withWorker.withPropertyValues("lockstep.tests.broker=process")
			.run((context) -> assertThat(
					LockstepConfigurationFailureAnalyzerAccess.refusalIn(context.getStartupFailure()).getProperty())
				.isEqualTo("lockstep.tests.broker"));
	}

	@Test
	void mistypedKeysOfEveryBranchAreRefused() {
		String[][] cases = { { "lockstep.registry.retires=1", "lockstep.registry.retries" },
				{ "lockstep.topics.orders.partition=4", "lockstep.topics.orders.partitions" },
				{ "lockstep.producers.orders.transaction-prefix=x", "lockstep.producers.orders.transaction-id-prefix" },
				{ "lockstep.workers.normalizer.output-value.codecs=string",
						"lockstep.workers.normalizer.output-value.codec" },
				{ "lockstep.dev.embedded-broker.enable=true", "lockstep.dev.embedded-broker.enabled" },
				{ "lockstep.listener.transaction-id-prefx=x", "lockstep.listener.transaction-id-prefix" },
				{ "lockstep.worker.normalizer.destination=x", "lockstep.workers.normalizer.destination" } };
		for (String[] refused : cases) {
			this.withWorker.withPropertyValues(refused[0])
				.run((context) -> assertRefused(context.getStartupFailure(), refused[0].split("=")[0], refused[1]));
		}
	}

	@Test
	void mistypedEnvironmentVariableIsRefusedWithItsOrigin() {
		this.runner.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					Map.of("LOCKSTEP_SECURITY_REQUIREENCRYTION", "true"))))
			.run((context) -> {
				LockstepConfigurationException refused = assertRefused(context.getStartupFailure(),
						"lockstep.security.requireencrytion", "lockstep.security.require-encryption");
				assertThat(refused.getOrigin()).contains("LOCKSTEP_SECURITY_REQUIREENCRYTION");
			});
	}

	@Test
	void relaxedFormsOfValidKeysBind() {
		this.withWorker.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					Map.of("LOCKSTEP_SECURITY_REQUIREENCRYPTION", "false", "LOCKSTEP_REGISTRY_CACHECAPACITY", "16",
							"LOCKSTEP_WORKERS_NORMALIZER_TRANSACTION_MAXINTERVAL", "50ms"))))
			.withPropertyValues("lockstep.workers.normalizer.batchSize=100",
					"lockstep.workers.normalizer.invalid_input.policy=block")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				LockstepProperties properties = context.getBean(LockstepProperties.class);
				assertThat(properties.getRegistry().getCacheCapacity()).isEqualTo(16);
				assertThat(properties.getWorkers().get("normalizer").getBatchSize()).isEqualTo(100);
				assertThat(properties.getWorkers().get("normalizer").getTransaction().getMaxInterval())
					.hasMillis(50);
			});
	}

	@Test
	void environmentVariablesWithUnderscoresForDashesBindAsSpringBootBindsThem() {
		// The form of SPRING_KAFKA_BOOTSTRAP_SERVERS, common in Kubernetes manifests.
		this.withWorker.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					Map.of("LOCKSTEP_SECURITY_REQUIRE_ENCRYPTION", "true", "LOCKSTEP_REGISTRY_CACHE_CAPACITY", "16",
							"LOCKSTEP_WORKERS_NORMALIZER_TRANSACTION_MAX_INTERVAL", "50ms"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				LockstepProperties properties = context.getBean(LockstepProperties.class);
				assertThat(properties.getSecurity().isRequireEncryption()).isTrue();
				assertThat(properties.getRegistry().getCacheCapacity()).isEqualTo(16);
				assertThat(properties.getWorkers().get("normalizer").getTransaction().getMaxInterval())
					.hasMillis(50);
			});
	}

	@Test
	void anEnvironmentVariableWithUnderscoresThatNamesNoPropertyIsRefused() {
		this.runner.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					Map.of("LOCKSTEP_SECURITY_REQUIRE_ENCRYPTON", "true"))))
			.run((context) -> assertRefused(context.getStartupFailure(), "lockstep.security.require.encrypton",
					"lockstep.security.require-encryption"));
	}

	@Test
	void correctConfigurationStarts() {
		this.withWorker
			.withPropertyValues("lockstep.security.require-encryption=false", "lockstep.registry.timeout=2s",
					"lockstep.registry.cache-capacity=8", "lockstep.workers.normalizer.transaction.max-interval=50ms",
					"lockstep.workers.normalizer.transaction.timeout=20s",
					"lockstep.workers.normalizer.invalid-input.policy=quarantine",
					"lockstep.workers.normalizer.invalid-input.quarantine-topic=orders-quarantine",
					"lockstep.workers.normalizer.recovery.max-backoff=5s",
					"lockstep.workers.normalizer.output-value.codec=bytes",
					"lockstep.workers.normalizer.consumer.fetch.min.bytes=1024",
					"lockstep.workers.normalizer.producer.linger.ms=5",
					"lockstep.producers.orders.key.codec=string",
					"lockstep.producers.orders.properties.compression.type=zstd",
					"lockstep.topics.orders.partitions=4", "lockstep.topics.orders.config.cleanup.policy=compact",
					"lockstep.listener.transaction-id-prefix=mine-", "lockstep.dev.embedded-broker.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(LockstepWorkers.class));
	}

	@Test
	void workerProducerAndTopicNamesMayBeAnything() {
		this.withWorker.withPropertyValues("lockstep.workers.security.source-topics=orders",
				"lockstep.workers.security.destination=normalized", "lockstep.workers.security.auto-startup=false",
				"lockstep.workers.security.processor=normalizer", "lockstep.workers.security.transactional-id=t-1",
				"lockstep.workers.consumer.source-topics=orders", "lockstep.workers.consumer.destination=normalized",
				"lockstep.workers.consumer.auto-startup=false", "lockstep.workers.consumer.processor=normalizer",
				"lockstep.producers.require-encryption.key.codec=string", "lockstep.topics.workers.partitions=2",
				"lockstep.topics[cookbook.orders.v1].partitions=3")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				LockstepProperties properties = context.getBean(LockstepProperties.class);
				assertThat(properties.getWorkers()).containsKeys("normalizer", "security", "consumer");
				assertThat(properties.getTopics()).containsKeys("workers", "cookbook.orders.v1");
				assertThat(properties.getTopics().get("cookbook.orders.v1").getPartitions()).isEqualTo(3);
			});
	}

	@Test
	void aValueThatDoesNotConvertIsReportedByBindingNotAsAnUnknownKey() {
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.transaction.max-interval=soon")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable cause = context.getStartupFailure();
				while (cause != null) {
					assertThat(cause).isNotInstanceOf(LockstepConfigurationException.class);
					cause = cause.getCause();
				}
			});
	}

	private static LockstepConfigurationException assertRefused(Throwable failure, String property,
			String suggestion) {
		LockstepConfigurationException refused = LockstepConfigurationFailureAnalyzerAccess.refusalIn(failure);
		assertThat(refused.getProperty()).isEqualTo(property);
		FailureAnalysis analysis = new LockstepConfigurationFailureAnalyzerAccess().analyze(failure);
		assertThat(analysis.getDescription()).contains("Property: " + property);
		assertThat(analysis.getAction()).contains("Did you mean '" + suggestion + "'?");
		return refused;
	}

	private static Class<?>[] lockstepAutoConfigurations() {
		ClassLoader classLoader = LockstepUnknownPropertiesTests.class.getClassLoader();
		return ImportCandidates.load(AutoConfiguration.class, classLoader)
			.getCandidates()
			.stream()
			.filter((name) -> name.startsWith("dev.lockstep."))
			.map((name) -> ClassUtils.resolveClassName(name, classLoader))
			.toArray(Class<?>[]::new);
	}

}
