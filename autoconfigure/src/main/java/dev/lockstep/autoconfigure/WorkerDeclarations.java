package dev.lockstep.autoconfigure;

import java.util.HashMap;
import java.util.Map;

import dev.lockstep.autoconfigure.validation.KafkaPropertiesValidator;
import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.worker.WorkerSettings;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * The checks of the workers' declarations that need nothing but Lockstep's properties:
 * run before any bean is created (so a mistake is reported before the development broker
 * starts or a client is built), and again by the worker factory.
 */
final class WorkerDeclarations {

	private WorkerDeclarations() {
	}

	/**
	 * Refuse a worker declaration that cannot work.
	 * @param properties the bound properties
	 * @param validator the Kafka properties validator, for the workers' client overrides
	 * @throws LockstepConfigurationException naming the first offending property
	 */
	static void check(LockstepProperties properties, KafkaPropertiesValidator validator) {
		Map<String, String> transactionalIds = new HashMap<>();
		properties.getWorkers().forEach((name, worker) -> {
			check(name, worker, validator);
			String transactionalId = transactionalId(name, worker);
			String previous = transactionalIds.put(transactionalId, name);
			if (previous != null) {
				throw new LockstepConfigurationException("lockstep.workers." + name + ".transactional-id", null,
						"workers '" + previous + "' and '" + name + "' share the transactional id base '"
								+ transactionalId + "' and would fence each other",
						"Give each worker its own transactional-id.");
			}
		});
	}

	/**
	 * Return a worker's group id: its own, or its name.
	 * @param name the worker's name
	 * @param worker its properties
	 * @return the group id
	 */
	static String groupId(String name, LockstepProperties.Worker worker) {
		return (worker.getGroupId() != null) ? worker.getGroupId() : WorkerSettings.defaultGroupId(name);
	}

	/**
	 * Return the base of a worker's transactional ids: its own, or its group id.
	 * @param name the worker's name
	 * @param worker its properties
	 * @return the base
	 */
	static String transactionalId(String name, LockstepProperties.Worker worker) {
		return (worker.getTransactionalId() != null) ? worker.getTransactionalId()
				: WorkerSettings.defaultTransactionalId(groupId(name, worker));
	}

	private static void check(String name, LockstepProperties.Worker worker, KafkaPropertiesValidator validator) {
		String prefix = "lockstep.workers." + name;
		if (worker.getSourceTopics().isEmpty()) {
			throw new LockstepConfigurationException(prefix + ".source-topics", null, "the worker consumes no topic",
					"Set " + prefix + ".source-topics.");
		}
		if (worker.getDestination() == null || worker.getDestination().isBlank()) {
			throw new LockstepConfigurationException(prefix + ".destination", null, "the worker has no destination",
					"Set " + prefix + ".destination.");
		}
		LockstepProperties.InvalidInput invalidInput = worker.getInvalidInput();
		if (invalidInput.getPolicy() == WorkerSettings.InvalidInputPolicy.Mode.QUARANTINE
				&& (invalidInput.getQuarantineTopic() == null || invalidInput.getQuarantineTopic().isBlank())) {
			throw new LockstepConfigurationException(prefix + ".invalid-input.quarantine-topic", null,
					"the quarantine policy needs a quarantine topic", "Set the quarantine topic, or use block.");
		}
		LockstepProperties.Guard guard = invalidInput.getGuard();
		refuseIf(guard.getWindow() < 1, prefix + ".invalid-input.guard.window", "must be at least 1");
		refuseIf(!(guard.getMaxRatio() > 0 && guard.getMaxRatio() <= 1), prefix + ".invalid-input.guard.max-ratio",
				"must be above 0 and at most 1");
		refuseIf(worker.getRecovery().getStallAfter() < 1, prefix + ".recovery.stall-after", "must be at least 1");
		checkRetry(prefix + ".retry", worker.getRetry(), invalidInput);
		Integer maxInFlight = worker.getMaxInFlight();
		if (maxInFlight != null && worker.getOrdering() == WorkerSettings.Ordering.PARTITION) {
			throw new LockstepConfigurationException(prefix + ".max-in-flight", null,
					"under ordering partition a slot processes one record at a time",
					"Set " + prefix + ".ordering to key or none to process records at the same time, or remove "
							+ prefix + ".max-in-flight.");
		}
		refuseIf(maxInFlight != null && maxInFlight < 1, prefix + ".max-in-flight", "must be at least 1");
		if (worker.getConsumer().containsKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG)) {
			throw new LockstepConfigurationException(prefix + ".consumer." + ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
					null, "a hand-set group.instance.id would be shared by every slot and instance",
					"Remove it: with " + prefix + ".static-membership each slot uses its transactional id.");
		}
		validator.checkKnownKeys(prefix + ".consumer", worker.getConsumer(), KafkaPropertiesValidator.CONSUMER_KEYS);
		validator.checkKnownKeys(prefix + ".producer", worker.getProducer(), KafkaPropertiesValidator.PRODUCER_KEYS);
		// The worker's own client overrides; the worker factory checks them again merged
		// with Spring Boot's client settings, which need the broker's connection details.
		validator.checkWorkerConsumer(name, new HashMap<>(worker.getConsumer()));
		validator.checkTransactionalProducer("worker '" + name + "'", prefix + ".producer",
				new HashMap<>(worker.getProducer()));
	}

	private static void checkRetry(String prefix, LockstepProperties.Retry retry,
			LockstepProperties.InvalidInput invalidInput) {
		refuseIf(retry.getAttempts() < 1, prefix + ".attempts", "must be at least 1");
		refuseIf(retry.getInitialBackoff().isNegative(), prefix + ".initial-backoff", "must not be negative");
		refuseIf(retry.getMaxBackoff().compareTo(retry.getInitialBackoff()) < 0, prefix + ".max-backoff",
				"must be at least the initial backoff");
		refuseIf(!(retry.getMultiplier() >= 1), prefix + ".multiplier", "must be at least 1");
		refuseIf(!(retry.getJitter() >= 0 && retry.getJitter() <= 1), prefix + ".jitter", "must be from 0 to 1");
		for (Class<?> type : retry.getRetryOn()) {
			if (!Throwable.class.isAssignableFrom(type)) {
				throw new LockstepConfigurationException(prefix + ".retry-on", type.getName(),
						"only exceptions are retried", "Name exception types.");
			}
		}
		if (retry.getAttempts() > 1 && retry.getExhausted() == WorkerSettings.InvalidInputPolicy.Mode.QUARANTINE
				&& (invalidInput.getQuarantineTopic() == null || invalidInput.getQuarantineTopic().isBlank())) {
			throw new LockstepConfigurationException(prefix + ".exhausted", "quarantine",
					"records whose retries are spent go to the invalid input's quarantine topic, and none is set",
					"Set the worker's invalid-input.quarantine-topic, or use block.");
		}
	}

	private static void refuseIf(boolean refused, String property, String reason) {
		if (refused) {
			throw new LockstepConfigurationException(property, null, reason, "Set a value in range, or remove it.");
		}
	}

}
