package dev.lockstep.autoconfigure;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.lockstep.autoconfigure.validation.KafkaPropertiesValidator;
import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.autoconfigure.validation.TransportSecurity;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.kafka.SubjectNameStrategy;
import dev.lockstep.worker.AsyncRecordProcessor;
import dev.lockstep.worker.AsyncValueTransformer;
import dev.lockstep.worker.InstanceIdentity;
import dev.lockstep.worker.RecordProcessor;
import dev.lockstep.worker.RecoveryPolicy;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.Worker;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.observation.WorkerObservations;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;

/**
 * Builds {@link Worker}s from {@code lockstep.workers.*}: client properties merged over
 * Spring Boot's (so {@code spring.kafka.*} and connection details apply), codecs from the
 * {@link LockstepCodecs}, the processor bean by name, and every check that makes a
 * misconfigured worker fail at start-up instead of at its first record.
 */
class WorkerFactory {

	// What Kafka accepts as a group.instance.id (a topic name's characters).
	private static final Pattern GROUP_INSTANCE_ID = Pattern.compile("[a-zA-Z0-9._-]+");

	private final LockstepProperties properties;

	private final Map<String, Object> baseConsumer;

	private final Map<String, Object> baseProducer;

	private final LockstepCodecs codecs;

	private final KafkaPropertiesValidator validator;

	private final TransportSecurity security;

	private final RegistryClient registry;

	private final BeanFactory beanFactory;

	private final RecoveryPolicy recoveryPolicy;

	private final WorkerListener listener;

	WorkerFactory(LockstepProperties properties, Map<String, Object> baseConsumer, Map<String, Object> baseProducer,
			LockstepCodecs codecs, KafkaPropertiesValidator validator, TransportSecurity security,
			RegistryClient registry, BeanFactory beanFactory,
			RecoveryPolicy recoveryPolicy, WorkerListener listener, WorkerObservations observations,
			InstanceIdentity instance) {
		this.properties = properties;
		this.observations = observations;
		this.instance = instance;
		this.baseConsumer = withoutSerdes(baseConsumer);
		this.baseProducer = withoutSerdes(baseProducer);
		this.codecs = codecs;
		this.validator = validator;
		this.security = security;
		this.registry = registry;
		this.beanFactory = beanFactory;
		this.recoveryPolicy = recoveryPolicy;
		this.listener = listener;
	}

	private final WorkerObservations observations;

	private final InstanceIdentity instance;

	Map<String, Worker> createAll() {
		// Already checked before any bean was created (LockstepPropertiesAutoConfiguration);
		// again here, for a context without that check.
		WorkerDeclarations.check(this.properties, this.validator);
		Map<String, Worker> workers = new LinkedHashMap<>();
		Map<String, String> bases = new HashMap<>();
		this.properties.getWorkers().forEach((name, worker) -> {
			Worker created = worker(name, worker);
			// The configured bases differ (checked above); with the instance added they must too.
			String base = created.settings().instanceTransactionalId();
			String other = bases.put(base, name);
			if (other != null) {
				throw new LockstepConfigurationException("lockstep.workers." + name + ".transactional-id", null,
						"workers '" + other + "' and '" + name + "' would both use transactional ids " + base
								+ "-<slot> on instance " + this.instance + " and fence each other",
						"Give one of them a transactional-id that does not end in this pod's ordinal.");
			}
			workers.put(name, created);
		});
		return workers;
	}

	WorkerSettings settings(String name, LockstepProperties.Worker worker) {
		String prefix = "lockstep.workers." + name;
		LockstepProperties.InvalidInput invalidInput = worker.getInvalidInput();
		Mode mode = invalidInput.getPolicy();
		Map<String, Object> consumer = new HashMap<>(this.baseConsumer);
		// The group and the member are the worker's own: Spring Boot's are for listeners.
		consumer.remove(ConsumerConfig.GROUP_ID_CONFIG);
		consumer.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
		consumer.putAll(worker.getConsumer());
		Map<String, Object> producer = new HashMap<>(this.baseProducer);
		producer.putAll(worker.getProducer());
		LockstepProperties.Transaction transaction = worker.getTransaction();
		this.validator.checkWorkerConsumer(name, consumer);
		this.validator.checkTransactionalProducer("worker '" + name + "'", prefix + ".producer", producer);
		this.validator.checkWorkerTransactionTimeout(name, producer, transaction.getTimeout(),
				worker.getPollTimeout().plus(transaction.getMaxInterval()));
		consumer.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, worker.getBatchSize());
		String groupId = WorkerDeclarations.groupId(name, worker);
		String transactionalId = WorkerDeclarations.transactionalId(name, worker);
		LockstepProperties.Codec outputKey = (worker.getOutputKey() != null) ? worker.getOutputKey() : worker.getKey();
		LockstepProperties.Codec outputValue = (worker.getOutputValue() != null) ? worker.getOutputValue()
				: worker.getValue();
		// The effective client maps: the worker's own overrides over Spring Boot's.
		this.security.checkClient("worker '" + name + "' consumer", prefix + ".consumer", "consumer", consumer);
		this.security.checkClient("worker '" + name + "' producer", prefix + ".producer", "producer", producer);
		WorkerSettings.Codecs codecs = new WorkerSettings.Codecs(
				this.codecs.deserializer(worker.getKey(), true, prefix + ".key"),
				this.codecs.deserializer(worker.getValue(), false, prefix + ".value"),
				this.codecs.serializer(outputKey, true, prefix + ".output-key"),
				this.codecs.serializer(outputValue, false, prefix + ".output-value"),
				List.of(InvalidDataException.class));
		WorkerSettings.Builder settings = WorkerSettings.builder(name)
			.sourceTopics(List.copyOf(worker.getSourceTopics()))
			.destination(worker.getDestination())
			.groupId(groupId)
			.transactionalId(transactionalId)
			.consumerProperties(consumer)
			.producerProperties(producer)
			.codecs(codecs)
			.concurrency(worker.getConcurrency())
			.pollTimeout(worker.getPollTimeout())
			.transaction(new WorkerSettings.TransactionSizing(transaction.getMaxRecords(), transaction.getMaxInterval(),
					transaction.getTimeout()))
			.invalidInput(new WorkerSettings.InvalidInputPolicy(mode, invalidInput.getQuarantineTopic(),
					new WorkerSettings.InvalidInputPolicy.QuarantineGuard(invalidInput.getGuard().getWindow(),
							invalidInput.getGuard().getMaxRatio())))
			.recovery(new WorkerSettings.Recovery(worker.getRecovery().getInitialBackoff(),
					worker.getRecovery().getMaxBackoff(), worker.getRecovery().getStallAfter()))
			.retry(retry(worker.getRetry()))
			.bounds(new WorkerSettings.Bounds(worker.getStopAfterRecords(), worker.getIdleTimeout()))
			.shutdownTimeout(worker.getShutdownTimeout())
			.ordering(worker.getOrdering())
			.observations(this.observations)
			.instance(this.instance)
			.membership(membership(prefix, worker, consumer, this.instance.transactionalIdBase(transactionalId)));
		if (worker.getMaxInFlight() != null) {
			settings.maxInFlight(worker.getMaxInFlight());
		}
		WorkerSettings built = settings.build();
		boolean usesRegistry = Stream.of(worker.getKey(), worker.getValue(), outputKey, outputValue)
			.anyMatch(this.codecs::usesRegistry);
		if (this.registry != null && worker.getDestination() != null) {
			// The topic's subjects; a record's (record-name strategies) is checked at its first record.
			OutputContractCheck contracts = new OutputContractCheck(this.registry);
			if (this.codecs.usesRegistry(outputKey)
					&& outputKey.getSubjectNameStrategy() == SubjectNameStrategy.TOPIC_NAME) {
				contracts.check(prefix + ".output-key", worker.getDestination() + "-key");
			}
			if (this.codecs.usesRegistry(outputValue)
					&& outputValue.getSubjectNameStrategy() == SubjectNameStrategy.TOPIC_NAME) {
				contracts.check(prefix + ".output-value", worker.getDestination() + "-value");
			}
		}
		this.validator.checkWorkerWaitBudget(name, built.producerMaxBlock(), transaction.getMaxInterval(),
				transaction.getTimeout(), (usesRegistry && this.registry != null) ? this.registry.longestWait() : null,
				describeRegistryWait(this.properties.getRegistry()));
		return built;
	}

	private static WorkerSettings.Retry retry(LockstepProperties.Retry retry) {
		// Each a Throwable: checked with the declarations.
		List<Class<? extends Throwable>> retryOn = retry.getRetryOn()
			.stream()
			.<Class<? extends Throwable>>map((type) -> type.asSubclass(Throwable.class))
			.toList();
		return new WorkerSettings.Retry(retry.getAttempts(), retry.getInitialBackoff(), retry.getMultiplier(),
				retry.getMaxBackoff(), retry.getJitter(), retry.getExhausted(), retryOn);
	}

	/**
	 * The worker's group membership: unless set, static under the classic protocol for a
	 * stable instance identity, else dynamic; static members need a stable identity, and a
	 * static member's id (its slot's transactional id) must be one Kafka accepts as a
	 * group.instance.id.
	 */
	private WorkerSettings.Membership membership(String prefix, LockstepProperties.Worker worker,
			Map<String, Object> consumer, String transactionalId) {
		boolean staticMembers = (worker.getStaticMembership() != null) ? worker.getStaticMembership()
				: WorkerSettings.Membership.defaultFor(consumer, this.instance).staticMembers();
		if (staticMembers && !this.instance.isStable()) {
			throw new LockstepConfigurationException(prefix + ".static-membership", null,
					"this instance's id is " + this.instance + ", new on every start: a static member that "
							+ "never comes back holds its partitions until its session times out after a crash",
					"Give the instance a stable id (lockstep.instance-id, or run as a StatefulSet pod), or remove "
							+ prefix + ".static-membership.");
		}
		if (!staticMembers && !worker.isLeaveGroupOnStop()) {
			throw new LockstepConfigurationException(prefix + ".leave-group-on-stop", null,
					"only a static member keeps its partitions after it stops; a dynamic one (the default under "
							+ "group.protocol=consumer and with a generated instance id) would hold them until its "
							+ "session times out and then rejoin as a new member",
					(this.instance.isStable() ? "Set " + prefix + ".static-membership=true"
							: "Give the instance a stable id (lockstep.instance-id) and set " + prefix
									+ ".static-membership=true")
							+ ", or remove " + prefix + ".leave-group-on-stop.");
		}
		String longest = transactionalId + "-" + (worker.getConcurrency() - 1);
		if (staticMembers && !(GROUP_INSTANCE_ID.matcher(longest).matches() && longest.length() <= 249)) {
			throw new LockstepConfigurationException(prefix + ".transactional-id", null,
					"the slots' transactional ids (" + longest + ": the base, the instance "
							+ this.instance.id() + " and the slot) are their static members' group.instance.id, "
							+ "which Kafka accepts only of letters, digits, '.', '_' and '-', at most 249 characters",
					"Set a transactional-id (and lockstep.instance-id) of those characters, or " + prefix
							+ ".static-membership=false.");
		}
		return new WorkerSettings.Membership(staticMembers, worker.isLeaveGroupOnStop());
	}

	private static String describeRegistryWait(LockstepProperties.Registry registry) {
		return (registry.getRetries() + 1) + " attempts x " + registry.getUrl().size() + " URL(s) x timeout "
				+ registry.getTimeout().toMillis() + " ms, plus back-offs";
	}

	private Worker worker(String name, LockstepProperties.Worker worker) {
		WorkerSettings settings = settings(name, worker);
		Object processor = processor(name, worker);
		if (processor instanceof AsyncRecordProcessor<?, ?> async) {
			return new Worker(settings, async, this.recoveryPolicy, this.listener);
		}
		return new Worker(settings, (RecordProcessor<?, ?>) processor, this.recoveryPolicy, this.listener);
	}

	/** The worker's processor bean, a transformer adapted: a RecordProcessor or an AsyncRecordProcessor. */
	private Object processor(String name, LockstepProperties.Worker worker) {
		String beanName = (worker.getProcessor() != null) ? worker.getProcessor() : name;
		String property = "lockstep.workers." + name + ".processor";
		Object bean;
		try {
			bean = this.beanFactory.getBean(beanName);
		}
		catch (NoSuchBeanDefinitionException ex) {
			throw new LockstepConfigurationException(property, null, "no bean named '" + beanName + "'",
					"Define a ValueTransformer or RecordProcessor bean (or their Async forms) named '" + beanName
							+ "', or set " + property + ".");
		}
		if (bean instanceof RecordProcessor<?, ?> || bean instanceof AsyncRecordProcessor<?, ?>) {
			return bean;
		}
		if (bean instanceof ValueTransformer<?, ?> transformer) {
			return RecordProcessor.of(transformer);
		}
		if (bean instanceof AsyncValueTransformer<?, ?> transformer) {
			return AsyncRecordProcessor.of(transformer);
		}
		throw new LockstepConfigurationException(property, null,
				"bean '" + beanName + "' is a " + bean.getClass().getName()
						+ ", not a ValueTransformer, RecordProcessor, AsyncValueTransformer or AsyncRecordProcessor",
				"Implement one of dev.lockstep.worker.ValueTransformer, RecordProcessor, AsyncValueTransformer or "
						+ "AsyncRecordProcessor.");
	}

	private static Map<String, Object> withoutSerdes(Map<String, Object> properties) {
		Map<String, Object> copy = new HashMap<>(properties);
		copy.remove(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG);
		copy.remove(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG);
		copy.remove(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG);
		copy.remove(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);
		return copy;
	}

}
