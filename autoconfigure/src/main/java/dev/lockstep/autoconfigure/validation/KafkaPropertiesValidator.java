package dev.lockstep.autoconfigure.validation;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import dev.lockstep.registry.internal.Names;
import dev.lockstep.registry.kafka.RegistrySerdeConfig;
import dev.lockstep.worker.ExactlyOnceClients;
import dev.lockstep.worker.WorkerSettings;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

/**
 * Checks Kafka property maps against kafka-clients' known keys, and a transactional
 * worker's effective client properties against the contract that keeps it exactly-once.
 * Every refusal is a {@link LockstepConfigurationException} naming the key, where it was
 * set, why, and what to do.
 */
public final class KafkaPropertiesValidator {

	/** Keys a consumer knows. */
	public static final Set<String> CONSUMER_KEYS = ConsumerConfig.configNames();

	/** Keys a producer knows. */
	public static final Set<String> PRODUCER_KEYS = ProducerConfig.configNames();

	/** Keys any Kafka client knows: for maps shared by consumers, producers and admins. */
	public static final Set<String> ANY_CLIENT_KEYS;

	static {
		Set<String> any = new HashSet<>(CONSUMER_KEYS);
		any.addAll(PRODUCER_KEYS);
		any.addAll(AdminClientConfig.configNames());
		ANY_CLIENT_KEYS = Set.copyOf(any);
	}

	private final PropertyOrigins origins;

	/**
	 * Create a validator.
	 * @param origins where properties come from
	 */
	public KafkaPropertiesValidator(PropertyOrigins origins) {
		this.origins = origins;
	}

	/**
	 * Refuse unknown keys in Spring Boot's Kafka property maps.
	 * @param kafka Spring Boot's Kafka properties
	 */
	public void checkSpringKafkaMaps(KafkaProperties kafka) {
		checkKnownKeys("spring.kafka.properties", kafka.getProperties(), ANY_CLIENT_KEYS);
		checkKnownKeys("spring.kafka.consumer.properties", kafka.getConsumer().getProperties(), CONSUMER_KEYS);
		checkKnownKeys("spring.kafka.producer.properties", kafka.getProducer().getProperties(), PRODUCER_KEYS);
	}

	/**
	 * Refuse any key of a property map that the clients do not know.
	 * @param prefix the map's property prefix, such as {@code spring.kafka.consumer.properties}
	 * @param properties the map
	 * @param known the keys the map may hold
	 */
	public void checkKnownKeys(String prefix, Map<String, ?> properties, Set<String> known) {
		for (String key : properties.keySet()) {
			if (!known.contains(key) && !RegistrySerdeConfig.isSerdeKey(key) && !key.startsWith("spring.")) {
				String property = prefix + "." + key;
				throw new LockstepConfigurationException(property, this.origins.of(property),
						"'" + key + "' is not a Kafka client property", "Did you mean '" + Names.nearest(key, known)
								+ "'? Unknown keys are refused rather than ignored.");
			}
		}
	}

	/**
	 * Refuse consumer settings that break a transactional worker's contract. Only values
	 * that were configured are refused; client defaults are overridden.
	 * @param worker the worker's name
	 * @param consumer the effective consumer properties before Lockstep sets its own
	 */
	public void checkWorkerConsumer(String worker, Map<String, Object> consumer) {
		String owner = "worker '" + worker + "'";
		String ownPrefix = "lockstep.workers." + worker + ".consumer";
		refuseIf(owner, ownPrefix, "consumer", consumer, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
				(value) -> Boolean.parseBoolean(value),
				"auto-commit would commit offsets outside the transaction that writes the output",
				"Remove it: the worker commits offsets inside its transactions.", "spring.kafka.consumer.enable-auto-commit");
		refuseIf(owner, ownPrefix, "consumer", consumer, ConsumerConfig.ISOLATION_LEVEL_CONFIG,
				(value) -> value.equalsIgnoreCase("read_uncommitted"),
				"read_uncommitted would process input that is later aborted",
				"Remove it: workers read with read_committed.", "spring.kafka.consumer.isolation-level");
		refuseIf(owner, ownPrefix, "consumer", consumer, ConsumerConfig.GROUP_ID_CONFIG, (value) -> !value.isBlank(),
				"the group id of a worker is its own setting", "Use lockstep.workers." + worker + ".group-id.",
				"spring.kafka.consumer.group-id");
		refuseBootstrapResolveTimeout(owner, ownPrefix, "consumer", consumer);
		if (WorkerSettings.usesConsumerGroupProtocol(consumer)) {
			for (String classic : new String[] { ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
					ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG }) {
				refuseIf(owner, ownPrefix, "consumer", consumer, classic, (value) -> true,
						"'" + classic + "' belongs to the classic group protocol, but group.protocol=consumer",
						"Remove it, or use group.protocol=classic.");
			}
		}
	}

	/**
	 * Refuse producer settings that break a transactional producer's contract.
	 * @param owner what the producer belongs to, such as {@code worker 'orders'}
	 * @param ownPrefix the owner's own producer property map, such as
	 * {@code lockstep.workers.orders.producer}
	 * @param producer the effective producer properties before Lockstep sets its own
	 */
	public void checkTransactionalProducer(String owner, String ownPrefix, Map<String, Object> producer) {
		refuseIf(owner, ownPrefix, "producer", producer, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
				(value) -> !Boolean.parseBoolean(value), "transactions need an idempotent producer",
				"Remove it: Lockstep always runs idempotent producers.");
		refuseIf(owner, ownPrefix, "producer", producer, ProducerConfig.ACKS_CONFIG,
				(value) -> !(value.equals("all") || value.equals("-1")),
				"acks other than all can lose acknowledged output", "Remove it: Lockstep uses acks=all.",
				"spring.kafka.producer.acks");
		refuseIf(owner, ownPrefix, "producer", producer, ProducerConfig.TRANSACTIONAL_ID_CONFIG,
				(value) -> !value.isBlank(), "a hand-set transactional.id would be shared by every producer",
				"Use the transactional-id (workers) or transaction-id-prefix (producers) setting.");
		refuseIf(owner, ownPrefix, "producer", producer, ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
				(value) -> Integer.parseInt(value.trim()) > 5,
				"more than 5 in-flight requests breaks idempotent ordering", "Use at most 5.");
		refuseBootstrapResolveTimeout(owner, ownPrefix, "producer", producer);
	}

	private void refuseBootstrapResolveTimeout(String owner, String ownPrefix, String client,
			Map<String, Object> properties) {
		refuseIf(owner, ownPrefix, client, properties, ExactlyOnceClients.BOOTSTRAP_RESOLVE_TIMEOUT,
				(value) -> !value.equals("0"),
				"a client that gives up resolving its bootstrap servers (Kafka 4.4, KIP-909) fails every call until "
						+ "it is re-created, which a worker does not do for it",
				"Remove it: Lockstep's clients resolve their bootstrap servers when they are built.");
	}

	/**
	 * Refuse a worker transaction timeout that its own polling could exceed.
	 * @param worker the worker's name
	 * @param producer the effective producer properties before Lockstep sets its own
	 * @param transactionTimeout the worker's transaction timeout
	 * @param budget the longest a transaction may legitimately stay open (poll timeout
	 * plus the transaction's max interval)
	 */
	public void checkWorkerTransactionTimeout(String worker, Map<String, Object> producer,
			Duration transactionTimeout, Duration budget) {
		String ownPrefix = "lockstep.workers." + worker + ".producer";
		refuseIf("worker '" + worker + "'", ownPrefix, "producer", producer, ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
				(value) -> true, "the transaction timeout of a worker is its own setting",
				"Use lockstep.workers." + worker + ".transaction.timeout.");
		if (transactionTimeout.compareTo(budget) <= 0) {
			String property = "lockstep.workers." + worker + ".transaction.timeout";
			throw new LockstepConfigurationException(property, this.origins.of(property),
					"a transaction timeout of " + transactionTimeout + " is not longer than the worker's "
							+ "poll-and-process budget of " + budget + " (poll timeout + transaction max interval)",
					"Raise the transaction timeout or lower lockstep.workers." + worker
							+ ".transaction.max-interval.");
		}
	}

	/**
	 * Refuse a worker that could wait inside an open transaction until the transaction
	 * timeout aborts it: the transaction's max interval plus the longest single wait (a
	 * producer call blocking for {@code max.block.ms}, or the registry client's worst case
	 * when the worker's codecs use the registry) must stay below the transaction timeout.
	 * @param worker the worker's name
	 * @param maxBlock the longest a producer call of the worker blocks ({@code max.block.ms})
	 * @param maxInterval the transaction's max interval
	 * @param transactionTimeout the worker's transaction timeout
	 * @param registryWait the registry client's worst case, or {@code null} when the
	 * worker's codecs do not use the registry
	 * @param registryWaitDescription how the registry's worst case adds up, for the report
	 */
	public void checkWorkerWaitBudget(String worker, Duration maxBlock, Duration maxInterval,
			Duration transactionTimeout, Duration registryWait, String registryWaitDescription) {
		boolean registryLongest = registryWait != null && registryWait.compareTo(maxBlock) > 0;
		Duration longestWait = registryLongest ? registryWait : maxBlock;
		Duration worstCase = maxInterval.plus(longestWait);
		if (worstCase.compareTo(transactionTimeout) < 0) {
			return;
		}
		String prefix = "lockstep.workers." + worker;
		String[] where;
		if (registryLongest) {
			where = new String[] { "lockstep.registry.timeout", this.origins.of("lockstep.registry.timeout") };
		}
		else {
			where = this.origins.firstSet(prefix + ".producer." + ProducerConfig.MAX_BLOCK_MS_CONFIG,
					"spring.kafka.producer.properties." + ProducerConfig.MAX_BLOCK_MS_CONFIG,
					"spring.kafka.properties." + ProducerConfig.MAX_BLOCK_MS_CONFIG);
			if (where[1] == null) {
				where = new String[] { prefix + ".transaction.max-interval",
						this.origins.of(prefix + ".transaction.max-interval") };
			}
		}
		String wait = registryLongest ? "the registry client's worst case of " + format(registryWait) + " ("
				+ registryWaitDescription + ")" : "max.block.ms of " + format(maxBlock);
		throw new LockstepConfigurationException(where[0], where[1],
				"worker '" + worker + "' can wait " + format(worstCase) + " inside an open transaction (max-interval "
						+ format(maxInterval) + " + " + wait + "), not below its transaction timeout of "
						+ format(transactionTimeout) + ": the coordinator would abort the transaction meanwhile",
				"Lower the wait (lockstep.registry.timeout or lockstep.registry.retries; max.block.ms in " + prefix
						+ ".producer) or " + prefix + ".transaction.max-interval, or raise " + prefix
						+ ".transaction.timeout.");
	}

	private static String format(Duration duration) {
		long millis = duration.toMillis();
		return (millis < 1000) ? millis + " ms"
				: BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString() + " s";
	}

	private void refuseIf(String owner, String ownPrefix, String client, Map<String, Object> properties, String key,
			Predicate<String> refused, String reason, String action, String... typedProperties) {
		Object value = properties.get(key);
		if (value == null || !refused.test(value.toString().trim().toLowerCase(Locale.ROOT))) {
			return;
		}
		String[] candidates = new String[3 + typedProperties.length];
		candidates[0] = ownPrefix + "." + key;
		candidates[1] = "spring.kafka." + client + ".properties." + key;
		candidates[2] = "spring.kafka.properties." + key;
		System.arraycopy(typedProperties, 0, candidates, 3, typedProperties.length);
		String[] where = this.origins.firstSet(candidates);
		if (where[1] == null) {
			// A client default (Spring Boot always sets some), not a setting: Lockstep overrides it.
			return;
		}
		throw new LockstepConfigurationException(where[0], where[1],
				key + "=" + value + " breaks " + owner + ": " + reason, action);
	}

}
