package dev.lockstep.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.autoconfigure.validation.LockstepConfigurationFailureAnalyzerAccess;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.kafka.RawAvroDeserializer;
import dev.lockstep.registry.kafka.RawAvroSerializer;
import dev.lockstep.worker.AsyncRecordProcessor;
import dev.lockstep.worker.AsyncValueTransformer;
import dev.lockstep.worker.InstanceIdentity;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.Worker;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.test.Order;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.transaction.KafkaTransactionManager;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;

class LockstepAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockstepInstanceAutoConfiguration.class, KafkaAutoConfiguration.class, LockstepPropertiesAutoConfiguration.class,
				LockstepRegistryAutoConfiguration.class, LockstepTopicsAutoConfiguration.class, LockstepWorkersAutoConfiguration.class,
				LockstepProducersAutoConfiguration.class, LockstepListenerAutoConfiguration.class))
		.withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:1", "spring.kafka.admin.auto-create=false");

	private final ApplicationContextRunner withWorker = this.runner.withUserConfiguration(Processors.class)
		.withPropertyValues("lockstep.workers.normalizer.source-topics=orders",
				"lockstep.workers.normalizer.destination=normalized", "lockstep.workers.normalizer.auto-startup=false",
				"lockstep.workers.normalizer.value.codec=raw-avro",
				"lockstep.workers.normalizer.value.type=" + Order.class.getName());

	@Test
	void noRegistryClientWithoutAUrl() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(RegistryClient.class);
			assertThat(context).hasSingleBean(LockstepCodecs.class);
		});
	}

	@Test
	void registryClientFromItsProperties() {
		this.runner.withPropertyValues("lockstep.registry.url=http://127.0.0.1:8081,http://127.0.0.1:8082",
				"lockstep.registry.timeout=2s", "lockstep.registry.max-response-size=1MB",
				"lockstep.registry.cache-capacity=8", "lockstep.registry.retries=0")
			.run((context) -> {
				assertThat(context).hasSingleBean(RegistryClient.class);
				assertThat(context.getBean(LockstepProperties.class).getRegistry().getUrl()).hasSize(2);
			});
	}

	@Test
	void registryOptionsOutOfRangeFailAtStartUp() {
		this.runner.withPropertyValues("lockstep.registry.url=http://127.0.0.1:8081", "lockstep.registry.retries=50")
			.run((context) -> assertThat(context).getFailure().rootCause().hasMessageContaining("retries"));
	}

	@Test
	void aUserDefinedRegistryClientWinsAndTheCodecsUseIt() {
		RegistryClient client = RegistryClient.builder("http://127.0.0.1:9999").build();
		this.runner.withPropertyValues("lockstep.registry.url=http://127.0.0.1:8081")
			.withBean(RegistryClient.class, () -> client)
			.run((context) -> {
				assertThat(context).hasSingleBean(RegistryClient.class).hasSingleBean(LockstepCodecs.class);
				assertThat(context.getBean(RegistryClient.class)).isSameAs(client);
			});
	}

	@Test
	void topicsAreDeclaredForKafkaAdmin() {
		this.runner.withPropertyValues("lockstep.topics.orders.partitions=4", "lockstep.topics.orders.replicas=1",
				"lockstep.topics.orders.config.cleanup.policy=compact", "lockstep.topics.normalized.partitions=2")
			.run((context) -> {
				KafkaAdmin.NewTopics topics = context.getBean("lockstepTopics", KafkaAdmin.NewTopics.class);
				Collection<NewTopic> declared = ReflectionTestUtils.invokeMethod(topics, "getNewTopics");
				assertThat(declared).extracting(NewTopic::name).containsExactly("orders", "normalized");
				NewTopic orders = declared.iterator().next();
				assertThat(orders.numPartitions()).isEqualTo(4);
				assertThat(orders.replicationFactor()).isEqualTo((short) 1);
				assertThat(orders.configs()).containsEntry("cleanup.policy", "compact");
			});
	}

	@Test
	void workerIsBuiltFromItsPropertiesOverSpringBootsKafkaSettings() {
		this.withWorker
			.withPropertyValues("spring.kafka.consumer.properties.fetch.min.bytes=1024",
					"lockstep.workers.normalizer.key.codec=string", "lockstep.workers.normalizer.concurrency=2",
					"lockstep.workers.normalizer.batch-size=250", "lockstep.workers.normalizer.transaction.max-records=42",
					"lockstep.workers.normalizer.transaction.max-interval=250ms",
					"lockstep.workers.normalizer.transaction.timeout=20s",
					"lockstep.workers.normalizer.invalid-input.policy=quarantine",
					"lockstep.workers.normalizer.invalid-input.quarantine-topic=orders-quarantine",
					"lockstep.workers.normalizer.stop-after-records=3", "lockstep.workers.normalizer.idle-timeout=60s",
					"lockstep.workers.normalizer.producer.linger.ms=5")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Worker worker = context.getBean(LockstepWorkers.class).worker("normalizer");
				WorkerSettings settings = worker.settings();
				assertThat(settings.sourceTopics()).containsExactly("orders");
				assertThat(settings.destination()).isEqualTo("normalized");
				assertThat(settings.groupId()).isEqualTo("normalizer");
				assertThat(settings.transactionalId(1)).isEqualTo("normalizer-" + settings.instance().id() + "-1");
				assertThat(settings.concurrency()).isEqualTo(2);
				assertThat(settings.consumerProperties()).containsEntry("bootstrap.servers", List.of("127.0.0.1:1"))
					.containsEntry("fetch.min.bytes", "1024")
					.containsEntry("max.poll.records", 250)
					.doesNotContainKey("key.deserializer");
				assertThat(settings.producerProperties()).containsEntry("linger.ms", "5")
					.containsEntry("batch.size", 128 * 1024);
				assertThat(settings.transaction()).isEqualTo(new WorkerSettings.TransactionSizing(42, Duration.ofMillis(250),
						Duration.ofSeconds(20)));
				assertThat(settings.invalidInput()).isEqualTo(new WorkerSettings.InvalidInputPolicy(Mode.QUARANTINE,
						"orders-quarantine"));
				assertThat(settings.bounds()).isEqualTo(new WorkerSettings.Bounds(3, Duration.ofSeconds(60)));
				assertThat(settings.codecs().keyDeserializer()).isInstanceOf(StringDeserializer.class);
				assertThat(settings.codecs().valueDeserializer()).isInstanceOf(RawAvroDeserializer.class);
				assertThat(settings.codecs().valueSerializer()).isInstanceOf(RawAvroSerializer.class);
				assertThat(worker.isRunning()).isFalse();
			});
	}

	@Test
	void workerDefaultsSizeTransactionsAndProducerBatchesForThroughputAndAnExplicitBatchSizeWins() {
		this.withWorker.run((context) -> {
			WorkerSettings settings = context.getBean(LockstepWorkers.class).worker("normalizer").settings();
			assertThat(settings.transaction())
				.isEqualTo(new WorkerSettings.TransactionSizing(50_000, Duration.ofMillis(100), Duration.ofSeconds(10)));
			assertThat(settings.producerProperties()).containsEntry("batch.size", 128 * 1024);
		});
		this.withWorker.withPropertyValues("spring.kafka.producer.batch-size=32KB").run((context) -> {
			WorkerSettings settings = context.getBean(LockstepWorkers.class).worker("normalizer").settings();
			assertThat(settings.producerProperties()).containsEntry("batch.size", 32 * 1024);
		});
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.producer.batch.size=1024").run((context) -> {
			WorkerSettings settings = context.getBean(LockstepWorkers.class).worker("normalizer").settings();
			assertThat(settings.producerProperties()).containsEntry("batch.size", "1024");
		});
	}

	@Test
	void aWorkerDeclaredInYamlHasTheRuntimesDefaultsForWhatItDoesNotSet() {
		this.withWorker.run((context) -> {
			WorkerSettings fromYaml = context.getBean(LockstepWorkers.class).worker("normalizer").settings();
			WorkerSettings fromJava = WorkerSettings.builder("normalizer")
				.sourceTopics("orders")
				.codecs(fromYaml.codecs())
				.build();
			assertThat(fromYaml).usingRecursiveComparison()
				.comparingOnlyFields("groupId", "transactionalId", "concurrency", "pollTimeout", "transaction",
						"invalidInput", "recovery", "retry", "bounds", "shutdownTimeout", "ordering", "maxInFlight",
						"membership")
				.isEqualTo(fromJava);
			// The client properties the worker gives a value unless set.
			assertThat(fromYaml.consumerProperties().get("auto.offset.reset"))
				.isEqualTo(fromJava.consumerProperties().get("auto.offset.reset"));
			assertThat(fromYaml.producerProperties().get("batch.size"))
				.isEqualTo(fromJava.producerProperties().get("batch.size"));
			assertThat(fromYaml.producerMaxBlock()).isEqualTo(fromJava.producerMaxBlock());
		});
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.ordering=key").run((context) -> {
			WorkerSettings fromYaml = context.getBean(LockstepWorkers.class).worker("normalizer").settings();
			assertThat(fromYaml.maxInFlight()).isEqualTo(WorkerSettings.DEFAULT_MAX_IN_FLIGHT);
		});
	}

	@Test
	void namedProducersAreTransactionalTemplatesBesideSpringBootsOwn() {
		this.runner
			.withPropertyValues("lockstep.instance-id=eu-1", "lockstep.producers.orders.value.codec=raw-avro",
					"lockstep.producers.orders.value.type=" + Order.class.getName(),
					"lockstep.producers.orders.key.codec=string")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasBean("kafkaTemplate").hasBean("orders")
					.hasBean("ordersTransactionManager");
				KafkaTemplate<?, ?> orders = context.getBean("orders", KafkaTemplate.class);
				assertThat(orders.isTransactional()).isTrue();
				assertThat(orders.getProducerFactory().getTransactionIdPrefix()).as("the instance tells replicas apart")
					.isEqualTo("orders-eu-1-");
				assertThat(context.getBean("lockstepListenerProducerFactory", DefaultKafkaProducerFactory.class)
					.getTransactionIdPrefix()).isEqualTo("lockstep-listener-eu-1-");
				assertThat(orders.getProducerFactory().getConfigurationProperties())
					.containsEntry("enable.idempotence", true).containsEntry("acks", "all");
				assertThat(context.getBean("ordersTransactionManager")).isInstanceOf(KafkaTransactionManager.class);
			});
	}

	@Test
	void springBootsProducerAndConsumerCustomizersApplyToLockstepsFactories() {
		AtomicInteger producers = new AtomicInteger();
		AtomicInteger consumers = new AtomicInteger();
		this.runner.withPropertyValues("lockstep.producers.orders.key.codec=string")
			.withBean(DefaultKafkaProducerFactoryCustomizer.class, () -> (factory) -> producers.incrementAndGet())
			.withBean(DefaultKafkaConsumerFactoryCustomizer.class, () -> (factory) -> consumers.incrementAndGet())
			.run((context) -> {
				context.getBean("orders");
				// Boot's own factory, the orders producer and the listener containers' producer.
				assertThat(producers.get()).isEqualTo(3);
				// Boot's own factory and the listener containers' consumer factory.
				assertThat(consumers.get()).isEqualTo(2);
			});
	}

	@Test
	void transactionalBatchListenerContainerFactory() {
		this.runner.run((context) -> {
			ConcurrentKafkaListenerContainerFactory<?, ?> factory = context.getBean("lockstepListenerContainerFactory",
					ConcurrentKafkaListenerContainerFactory.class);
			assertThat(factory.isBatchListener()).isTrue();
			assertThat(factory.getContainerProperties().getKafkaAwareTransactionManager()).isNotNull();
			assertThat(factory.getConsumerFactory().getConfigurationProperties())
				.containsEntry("isolation.level", "read_committed").containsEntry("enable.auto.commit", false);
			// The listener's transactional producer factory is no default candidate: Boot's still wins by type.
			assertThat(context.getBean(ProducerFactory.class)).isSameAs(context.getBean("kafkaProducerFactory"));
		});
	}

	@Test
	void unknownKafkaKeyStopsStartUpNamingTheNearestKey() {
		this.runner.withPropertyValues("spring.kafka.consumer.properties.max.pol.records=5")
			.run((context) -> assertRefused(context.getStartupFailure(),
					"spring.kafka.consumer.properties.max.pol.records", "max.poll.records"));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.producer.lingr.ms=5")
			.run((context) -> assertRefused(context.getStartupFailure(), "lockstep.workers.normalizer.producer.lingr.ms",
					"linger.ms"));
	}

	@Test
	void settingsThatBreakTheTransactionalContractAreRefused() {
		String[][] cases = { { "lockstep.workers.normalizer.consumer.enable.auto.commit=true", "enable.auto.commit" },
				{ "spring.kafka.consumer.enable-auto-commit=true", "spring.kafka.consumer.enable-auto-commit" },
				{ "lockstep.workers.normalizer.consumer.isolation.level=read_uncommitted", "isolation.level" },
				{ "lockstep.workers.normalizer.producer.enable.idempotence=false", "enable.idempotence" },
				{ "spring.kafka.producer.acks=1", "spring.kafka.producer.acks" },
				{ "lockstep.workers.normalizer.producer.transactional.id=mine", "transactional.id" },
				{ "lockstep.workers.normalizer.consumer.group.instance.id=mine", "group.instance.id" },
				{ "lockstep.workers.normalizer.producer.max.in.flight.requests.per.connection=6", "max.in.flight" },
				{ "lockstep.workers.normalizer.transaction.timeout=100ms", "transaction.timeout" } };
		for (String[] refused : cases) {
			this.withWorker.withPropertyValues(refused[0])
				.run((context) -> assertRefused(context.getStartupFailure(), refused[1], null));
		}
		this.withWorker
			.withPropertyValues("lockstep.workers.normalizer.consumer.group.protocol=consumer",
					"lockstep.workers.normalizer.consumer.session.timeout.ms=10000")
			.run((context) -> assertRefused(context.getStartupFailure(), "session.timeout.ms", null));
	}

	@Test
	void theInstanceIdentityIsConfiguredOrResolvedOnceAndPartOfEveryWorkersTransactionalIds() {
		this.withWorker
			.withPropertyValues("lockstep.instance-id=eu-1", "lockstep.workers.audit.source-topics=orders",
					"lockstep.workers.audit.destination=audit", "lockstep.workers.audit.processor=normalizer",
					"lockstep.workers.audit.auto-startup=false", "lockstep.workers.audit.value.codec=raw-avro",
					"lockstep.workers.audit.value.type=" + Order.class.getName())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				InstanceIdentity instance = context.getBean(InstanceIdentity.class);
				assertThat(instance).isEqualTo(InstanceIdentity.configured("eu-1", "lockstep.instance-id"));
				LockstepWorkers workers = context.getBean(LockstepWorkers.class);
				assertThat(workers.worker("normalizer").settings().transactionalId(0)).isEqualTo("normalizer-eu-1-0");
				assertThat(workers.worker("audit").settings().transactionalId(0)).isEqualTo("audit-eu-1-0");
			});
		// The platform's variables, read through Spring's environment as the process's would be.
		this.withWorker.withPropertyValues("KUBERNETES_SERVICE_HOST=10.96.0.1", "HOSTNAME=normalizer-2")
			.run((context) -> {
				InstanceIdentity instance = context.getBean(InstanceIdentity.class);
				assertThat(instance.kind()).isEqualTo(InstanceIdentity.Kind.STATEFUL_SET);
				WorkerSettings settings = context.getBean(LockstepWorkers.class).worker("normalizer").settings();
				assertThat(settings.instance()).isSameAs(instance);
				assertThat(settings.transactionalId(0)).isEqualTo("normalizer-normalizer-2-0");
				assertThat(settings.membership()).isEqualTo(WorkerSettings.Membership.STATIC);
			});
		this.withWorker.withPropertyValues("HOSTNAME=normalizer-7d9f8b6c5-x2k4q").run((context) -> {
			InstanceIdentity instance = context.getBean(InstanceIdentity.class);
			assertThat(instance.kind()).isEqualTo(InstanceIdentity.Kind.GENERATED);
			assertThat(membership(context)).isEqualTo(WorkerSettings.Membership.DYNAMIC);
		});
		this.withWorker.withPropertyValues("lockstep.instance-id=pod 1")
			.run((context) -> assertRefused(context.getStartupFailure(), "lockstep.instance-id", "Set lockstep.instance-id"));
	}

	@Test
	void twoWorkersWhoseBasesMeetOnceTheInstanceIsAddedAreRefused() {
		// On StatefulSet pod "normalizer-2", "orders" gives orders-normalizer-2 and
		// "orders-normalizer-2" already ends in the ordinal: the same ids.
		this.withWorker
			.withPropertyValues("KUBERNETES_SERVICE_HOST=10.96.0.1", "HOSTNAME=normalizer-2",
					"lockstep.workers.normalizer.transactional-id=orders",
					"lockstep.workers.audit.transactional-id=orders-normalizer-2",
					"lockstep.workers.audit.source-topics=orders", "lockstep.workers.audit.destination=audit",
					"lockstep.workers.audit.processor=normalizer", "lockstep.workers.audit.auto-startup=false",
					"lockstep.workers.audit.value.codec=raw-avro", "lockstep.workers.audit.value.type=" + Order.class.getName())
			.run((context) -> assertRefused(context.getStartupFailure(), "lockstep.workers.audit.transactional-id",
					"does not end in this pod's ordinal"));
	}

	@Test
	void slotsAreStaticMembersOnlyWithAStableIdentityUnderTheClassicProtocolUnlessConfigured() {
		ApplicationContextRunner stable = this.withWorker.withPropertyValues("lockstep.instance-id=a");
		stable.run((context) -> assertThat(membership(context)).isEqualTo(WorkerSettings.Membership.STATIC));
		this.withWorker.withPropertyValues("lockstep.instance-id=")
			.withBean(InstanceIdentity.class, InstanceIdentity::generated)
			.run((context) -> assertThat(membership(context)).isEqualTo(WorkerSettings.Membership.DYNAMIC));
		this.withWorker.withBean(InstanceIdentity.class, InstanceIdentity::generated)
			.withPropertyValues("lockstep.workers.normalizer.static-membership=true")
			.run((context) -> assertRefused(context.getStartupFailure(), "static-membership", "lockstep.instance-id"));
		this.withWorker.withBean(InstanceIdentity.class, InstanceIdentity::generated)
			.withPropertyValues("lockstep.workers.normalizer.leave-group-on-stop=false")
			.run((context) -> assertRefused(context.getStartupFailure(), "leave-group-on-stop",
					"Give the instance a stable id (lockstep.instance-id) and set "
							+ "lockstep.workers.normalizer.static-membership=true"));
		stable.withPropertyValues("lockstep.workers.normalizer.consumer.group.protocol=consumer")
			.run((context) -> assertThat(membership(context)).isEqualTo(WorkerSettings.Membership.DYNAMIC));
		stable
			.withPropertyValues("spring.kafka.consumer.properties.group.protocol=consumer",
					"lockstep.workers.normalizer.static-membership=true")
			.run((context) -> assertThat(membership(context)).isEqualTo(WorkerSettings.Membership.STATIC));
		stable.withPropertyValues("lockstep.workers.normalizer.leave-group-on-stop=false")
			.run((context) -> assertThat(membership(context)).isEqualTo(new WorkerSettings.Membership(true, false)));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.static-membership=false")
			.run((context) -> assertThat(membership(context)).isEqualTo(WorkerSettings.Membership.DYNAMIC));
		this.withWorker
			.withPropertyValues("lockstep.workers.normalizer.static-membership=false",
					"lockstep.workers.normalizer.leave-group-on-stop=false")
			.run((context) -> assertRefused(context.getStartupFailure(), "leave-group-on-stop", "static-membership=true"));
		this.withWorker
			.withPropertyValues("lockstep.workers.normalizer.consumer.group.protocol=consumer",
					"lockstep.workers.normalizer.leave-group-on-stop=false")
			.run((context) -> assertRefused(context.getStartupFailure(), "leave-group-on-stop", "static-membership=true"));
	}

	@Test
	void aStaticMembersIdMustBeOneKafkaAccepts() {
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.transactional-id=payments:eu",
				"lockstep.instance-id=a")
			.run((context) -> assertRefused(context.getStartupFailure(), "transactional-id", "static-membership=false"));
		this.withWorker
			.withPropertyValues("lockstep.workers.normalizer.transactional-id=payments:eu",
					"lockstep.workers.normalizer.static-membership=false")
			.run((context) -> assertThat(membership(context)).isEqualTo(WorkerSettings.Membership.DYNAMIC));
	}

	@Test
	void springBootsGroupInstanceIdIsForListenersNotWorkers() {
		this.withWorker.withPropertyValues("spring.kafka.consumer.properties.group.instance.id=listener-1")
			.run((context) -> assertThat(context.getBean(LockstepWorkers.class)
				.worker("normalizer")
				.settings()
				.consumerProperties()).doesNotContainKey("group.instance.id"));
	}

	private static WorkerSettings.Membership membership(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		return context.getBean(LockstepWorkers.class).worker("normalizer").settings().membership();
	}

	@Test
	void quarantineGuardAndStallThresholdAreMappedAndOutOfRangeValuesRefused() {
		this.withWorker
			.withPropertyValues("lockstep.workers.normalizer.invalid-input.guard.window=20",
					"lockstep.workers.normalizer.invalid-input.guard.max-ratio=0.25",
					"lockstep.workers.normalizer.recovery.stall-after=9")
			.run((context) -> {
				WorkerSettings settings = context.getBean(LockstepWorkers.class).worker("normalizer").settings();
				assertThat(settings.invalidInput().guard())
					.isEqualTo(new WorkerSettings.InvalidInputPolicy.QuarantineGuard(20, 0.25));
				assertThat(settings.recovery().stallAfter()).isEqualTo(9);
				assertThat(settings.codecs().invalidData()).containsExactly(InvalidDataException.class);
			});
		this.withWorker.run((context) -> {
			WorkerSettings settings = context.getBean(LockstepWorkers.class).worker("normalizer").settings();
			assertThat(settings.invalidInput().guard())
				.isEqualTo(WorkerSettings.InvalidInputPolicy.QuarantineGuard.DEFAULT);
			assertThat(settings.recovery().stallAfter()).isEqualTo(5);
		});
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.invalid-input.guard.max-ratio=1.5")
			.run((context) -> assertRefused(context.getStartupFailure(), "guard.max-ratio", null));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.invalid-input.guard.window=0")
			.run((context) -> assertRefused(context.getStartupFailure(), "guard.window", null));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.recovery.stall-after=0")
			.run((context) -> assertRefused(context.getStartupFailure(), "stall-after", null));
	}

	@Test
	void aRetryBudgetIsMappedAndOutOfRangeOrContradictoryValuesRefused() {
		this.withWorker
			.withPropertyValues("lockstep.workers.normalizer.retry.attempts=4",
					"lockstep.workers.normalizer.retry.initial-backoff=200ms",
					"lockstep.workers.normalizer.retry.multiplier=3",
					"lockstep.workers.normalizer.retry.max-backoff=1m", "lockstep.workers.normalizer.retry.jitter=0.2",
					"lockstep.workers.normalizer.retry.exhausted=quarantine",
					"lockstep.workers.normalizer.retry.retry-on=java.io.IOException, java.util.concurrent.TimeoutException",
					"lockstep.workers.normalizer.invalid-input.quarantine-topic=orders-quarantine")
			.run((context) -> {
				WorkerSettings settings = context.getBean(LockstepWorkers.class).worker("normalizer").settings();
				assertThat(settings.retry()).isEqualTo(new WorkerSettings.Retry(4, Duration.ofMillis(200), 3,
						Duration.ofMinutes(1), 0.2, WorkerSettings.InvalidInputPolicy.Mode.QUARANTINE,
						List.of(IOException.class, TimeoutException.class)));
			});
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.retry.attempts=3",
				"lockstep.workers.normalizer.retry.exhausted=quarantine")
			.run((context) -> assertRefused(context.getStartupFailure(), "retry.exhausted", "quarantine-topic"));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.retry.retry-on=java.lang.String")
			.run((context) -> assertRefused(context.getStartupFailure(), "retry.retry-on", "exception"));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.retry.attempts=0")
			.run((context) -> assertRefused(context.getStartupFailure(), "retry.attempts", null));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.retry.max-backoff=10ms")
			.run((context) -> assertRefused(context.getStartupFailure(), "retry.max-backoff", null));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.retry.multiplier=0.5")
			.run((context) -> assertRefused(context.getStartupFailure(), "retry.multiplier", null));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.retry.jitter=2")
			.run((context) -> assertRefused(context.getStartupFailure(), "retry.jitter", null));
	}

	@Test
	void orderingAndMaxInFlightAreMappedAndContradictionsRefused() {
		this.withWorker.run((context) -> {
			WorkerSettings settings = context.getBean(LockstepWorkers.class).worker("normalizer").settings();
			assertThat(settings.ordering()).isEqualTo(WorkerSettings.Ordering.PARTITION);
			assertThat(settings.maxInFlight()).isOne();
		});
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.ordering=key").run((context) -> {
			WorkerSettings settings = context.getBean(LockstepWorkers.class).worker("normalizer").settings();
			assertThat(settings.ordering()).isEqualTo(WorkerSettings.Ordering.KEY);
			assertThat(settings.maxInFlight()).isEqualTo(256);
		});
		this.withWorker
			.withPropertyValues("lockstep.workers.normalizer.ordering=none",
					"lockstep.workers.normalizer.max-in-flight=1000")
			.run((context) -> {
				WorkerSettings settings = context.getBean(LockstepWorkers.class).worker("normalizer").settings();
				assertThat(settings.ordering()).isEqualTo(WorkerSettings.Ordering.NONE);
				assertThat(settings.maxInFlight()).isEqualTo(1000);
			});
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.max-in-flight=64")
			.run((context) -> assertRefused(context.getStartupFailure(), "max-in-flight", "ordering"));
		this.withWorker
			.withPropertyValues("lockstep.workers.normalizer.ordering=key",
					"lockstep.workers.normalizer.max-in-flight=0")
			.run((context) -> assertRefused(context.getStartupFailure(), "max-in-flight", null));
	}

	@Test
	void asynchronousProcessorBeansRunAsWorkers() {
		this.withWorker
			.withPropertyValues("lockstep.workers.normalizer.ordering=key",
					"lockstep.workers.normalizer.processor=asyncNormalizer")
			.run((context) -> assertThat(context).hasNotFailed()
				.getBean(LockstepWorkers.class)
				.satisfies((workers) -> assertThat(workers.worker("normalizer")).isNotNull()));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.processor=asyncProcessor")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void incompleteWorkersAreRefused() {
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.processor=missing")
			.run((context) -> assertRefused(context.getStartupFailure(), "processor", "'missing'"));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.processor=notAProcessor")
			.run((context) -> assertRefused(context.getStartupFailure(), "processor", "ValueTransformer"));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.destination=")
			.run((context) -> assertRefused(context.getStartupFailure(), "destination", null));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.invalid-input.policy=quarantine")
			.run((context) -> assertRefused(context.getStartupFailure(), "quarantine-topic", null));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.value.type=")
			.run((context) -> assertRefused(context.getStartupFailure(), "value.type", null));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.value.codec=registry-avro")
			.run((context) -> assertRefused(context.getStartupFailure(), "value.codec", "lockstep.registry.url"));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.value.codec=registry-json-schema")
			.run((context) -> assertRefused(context.getStartupFailure(), "value.codec", "lockstep.registry.url"));
		this.withWorker.withPropertyValues("lockstep.workers.normalizer.output-value.schema=classpath:order.json")
			.run((context) -> assertRefused(context.getStartupFailure(), "output-value.schema",
					"(registry-json-schema)"));
		this.withWorker
			.withPropertyValues("lockstep.registry.url=http://127.0.0.1:9", "lockstep.workers.normalizer.auto-startup=false",
					"lockstep.workers.normalizer.output-value.codec=registry-json-schema",
					"lockstep.workers.normalizer.output-value.schema=classpath:missing.schema.json")
			.run((context) -> assertRefused(context.getStartupFailure(), "output-value", "output-value.schema"));
		this.withWorker
			.withPropertyValues("lockstep.workers.copy.source-topics=orders", "lockstep.workers.copy.destination=x",
					"lockstep.workers.copy.auto-startup=false", "lockstep.workers.copy.processor=normalizer",
					"lockstep.workers.copy.transactional-id=normalizer")
			.run((context) -> assertRefused(context.getStartupFailure(), "transactional-id", "fence each other"));
	}

	@Test
	void plaintextToARemoteBrokerIsRefusedWhenEncryptionIsRequired() {
		this.withWorker
			.withPropertyValues("spring.kafka.bootstrap-servers=10.1.2.3:9092", "lockstep.security.require-encryption=true")
			.run((context) -> assertRefused(context.getStartupFailure(), "spring.kafka.bootstrap-servers", "TLS"));
		this.withWorker.withPropertyValues("spring.kafka.bootstrap-servers=10.1.2.3:9092")
			.run((context) -> assertThat(context).hasNotFailed());
		this.runner
			.withPropertyValues("lockstep.registry.url=http://registry.example:8081",
					"lockstep.security.require-encryption=true")
			.run((context) -> assertRefused(context.getStartupFailure(), "lockstep.registry.url", "https"));
	}

	@Test
	void configurationMetadataDescribesEveryProperty() throws IOException {
		try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(in).isNotNull();
			String metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			assertThat(metadata).contains("\"lockstep.registry.timeout\"", "\"lockstep.workers\"",
					"\"lockstep.producers\"", "\"lockstep.security.require-encryption\"",
					"Deadline of one request, connect, headers and body included.");
		}
	}

	private static void assertRefused(Throwable failure, String property, String action) {
		LockstepConfigurationException refused = LockstepConfigurationFailureAnalyzerAccess.refusalIn(failure);
		assertThat(refused.getProperty() + " " + refused.getReason()).contains(property);
		FailureAnalysis analysis = new LockstepConfigurationFailureAnalyzerAccess()
			.analyze(failure);
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).contains("Lockstep refused the configuration", refused.getProperty());
		if (action != null) {
			assertThat(analysis.getAction() + " " + refused.getReason()).contains(action);
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class Processors {

		@Bean
		ValueTransformer<Order, Order> normalizer() {
			return (order) -> order;
		}

		@Bean
		AsyncValueTransformer<Order, Order> asyncNormalizer() {
			return CompletableFuture::completedFuture;
		}

		@Bean
		AsyncRecordProcessor<Object, Object> asyncProcessor() {
			return (record, output) -> CompletableFuture.completedFuture(null);
		}

		@Bean
		String notAProcessor() {
			return "not a processor";
		}

	}

}
