package dev.lockstep.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Everything a {@link Worker} needs, resolved: Kafka client properties already merged
 * (connection, security and the worker's own), codecs already built. Configuration
 * classes build this from {@code lockstep.workers.<name>.*}; tests build it directly.
 *
 * @param name the worker's name, used in thread names, logs and metrics
 * @param sourceTopics the topics consumed
 * @param destination the topic {@link Output#toDestination} writes to
 * @param groupId the consumer group
 * @param transactionalId the base of each slot's transactional id ({@code <id>-<slot>})
 * @param consumerProperties consumer properties (bootstrap servers, security, tuning)
 * @param producerProperties producer properties (bootstrap servers, security, tuning)
 * @param codecs the key and value codecs of input and output
 * @param concurrency the number of slots, each one consumer and one transactional producer
 * @param pollTimeout the longest a poll waits for records
 * @param transaction when an open transaction is committed
 * @param invalidInput what happens to records that can never be processed
 * @param recovery the back-off between recovery attempts, and when a slot counts as stalled
 * @param bounds optional bounds for one-shot runs
 * @param shutdownTimeout the longest a graceful stop waits for the slots
 * @param ordering which records of a slot may be processed at the same time
 * @param maxInFlight the most records a slot processes at once (1 under
 * {@link Ordering#PARTITION})
 * @param observations the worker's observations ({@link WorkerObservations#NONE} for none)
 * @param membership how each slot's consumer is a member of the group (unless given,
 * {@link Membership#defaultFor the default for its group protocol})
 */
public record WorkerSettings(String name, List<String> sourceTopics, String destination, String groupId,
		String transactionalId, Map<String, Object> consumerProperties, Map<String, Object> producerProperties,
		Codecs codecs, int concurrency, Duration pollTimeout, TransactionSizing transaction,
		InvalidInputPolicy invalidInput, Recovery recovery, Bounds bounds, Duration shutdownTimeout,
		Ordering ordering, int maxInFlight, WorkerObservations observations, Membership membership) {

	/** Records in flight per slot under {@link Ordering#KEY} and {@link Ordering#NONE} unless set. */
	public static final int DEFAULT_MAX_IN_FLIGHT = 256;

	public WorkerSettings {
		sourceTopics = List.copyOf(sourceTopics);
		consumerProperties = Map.copyOf(consumerProperties);
		producerProperties = Map.copyOf(producerProperties);
		if (observations == null) {
			observations = WorkerObservations.NONE;
		}
		if (membership == null) {
			membership = Membership.defaultFor(consumerProperties);
		}
		if (concurrency < 1) {
			throw new IllegalArgumentException("Concurrency must be at least 1, not " + concurrency);
		}
		if (maxInFlight < 1 || (ordering == Ordering.PARTITION && maxInFlight != 1)) {
			throw new IllegalArgumentException("Max in flight must be at least 1, and 1 under ordering PARTITION, not "
					+ maxInFlight + " under " + ordering);
		}
	}

	/**
	 * Create settings whose slots are members of the group as is the default for its
	 * protocol ({@link Membership#defaultFor}).
	 * @param name the worker's name
	 * @param sourceTopics the topics consumed
	 * @param destination the topic {@link Output#toDestination} writes to
	 * @param groupId the consumer group
	 * @param transactionalId the base of each slot's transactional id
	 * @param consumerProperties consumer properties
	 * @param producerProperties producer properties
	 * @param codecs the key and value codecs of input and output
	 * @param concurrency the number of slots
	 * @param pollTimeout the longest a poll waits for records
	 * @param transaction when an open transaction is committed
	 * @param invalidInput what happens to records that can never be processed
	 * @param recovery the back-off between recovery attempts
	 * @param bounds optional bounds for one-shot runs
	 * @param shutdownTimeout the longest a graceful stop waits for the slots
	 * @param ordering which records of a slot may be processed at the same time
	 * @param maxInFlight the most records a slot processes at once
	 * @param observations the worker's observations
	 */
	public WorkerSettings(String name, List<String> sourceTopics, String destination, String groupId,
			String transactionalId, Map<String, Object> consumerProperties, Map<String, Object> producerProperties,
			Codecs codecs, int concurrency, Duration pollTimeout, TransactionSizing transaction,
			InvalidInputPolicy invalidInput, Recovery recovery, Bounds bounds, Duration shutdownTimeout,
			Ordering ordering, int maxInFlight, WorkerObservations observations) {
		this(name, sourceTopics, destination, groupId, transactionalId, consumerProperties, producerProperties,
				codecs, concurrency, pollTimeout, transaction, invalidInput, recovery, bounds, shutdownTimeout,
				ordering, maxInFlight, observations, null);
	}

	/**
	 * Create settings without observations.
	 * @param name the worker's name
	 * @param sourceTopics the topics consumed
	 * @param destination the topic {@link Output#toDestination} writes to
	 * @param groupId the consumer group
	 * @param transactionalId the base of each slot's transactional id
	 * @param consumerProperties consumer properties
	 * @param producerProperties producer properties
	 * @param codecs the key and value codecs of input and output
	 * @param concurrency the number of slots
	 * @param pollTimeout the longest a poll waits for records
	 * @param transaction when an open transaction is committed
	 * @param invalidInput what happens to records that can never be processed
	 * @param recovery the back-off between recovery attempts
	 * @param bounds optional bounds for one-shot runs
	 * @param shutdownTimeout the longest a graceful stop waits for the slots
	 * @param ordering which records of a slot may be processed at the same time
	 * @param maxInFlight the most records a slot processes at once
	 */
	public WorkerSettings(String name, List<String> sourceTopics, String destination, String groupId,
			String transactionalId, Map<String, Object> consumerProperties, Map<String, Object> producerProperties,
			Codecs codecs, int concurrency, Duration pollTimeout, TransactionSizing transaction,
			InvalidInputPolicy invalidInput, Recovery recovery, Bounds bounds, Duration shutdownTimeout,
			Ordering ordering, int maxInFlight) {
		this(name, sourceTopics, destination, groupId, transactionalId, consumerProperties, producerProperties,
				codecs, concurrency, pollTimeout, transaction, invalidInput, recovery, bounds, shutdownTimeout,
				ordering, maxInFlight, WorkerObservations.NONE, null);
	}

	/**
	 * Create settings of a partition-ordered worker: one record of a slot at a time.
	 * @param name the worker's name
	 * @param sourceTopics the topics consumed
	 * @param destination the topic {@link Output#toDestination} writes to
	 * @param groupId the consumer group
	 * @param transactionalId the base of each slot's transactional id
	 * @param consumerProperties consumer properties
	 * @param producerProperties producer properties
	 * @param codecs the key and value codecs of input and output
	 * @param concurrency the number of slots
	 * @param pollTimeout the longest a poll waits for records
	 * @param transaction when an open transaction is committed
	 * @param invalidInput what happens to records that can never be processed
	 * @param recovery the back-off between recovery attempts
	 * @param bounds optional bounds for one-shot runs
	 * @param shutdownTimeout the longest a graceful stop waits for the slots
	 */
	public WorkerSettings(String name, List<String> sourceTopics, String destination, String groupId,
			String transactionalId, Map<String, Object> consumerProperties, Map<String, Object> producerProperties,
			Codecs codecs, int concurrency, Duration pollTimeout, TransactionSizing transaction,
			InvalidInputPolicy invalidInput, Recovery recovery, Bounds bounds, Duration shutdownTimeout) {
		this(name, sourceTopics, destination, groupId, transactionalId, consumerProperties, producerProperties,
				codecs, concurrency, pollTimeout, transaction, invalidInput, recovery, bounds, shutdownTimeout,
				Ordering.PARTITION, 1, WorkerObservations.NONE, null);
	}

	/**
	 * Return these settings with another ordering.
	 * @param ordering which records of a slot may be processed at the same time
	 * @param maxInFlight the most records a slot processes at once (1 under
	 * {@link Ordering#PARTITION})
	 * @return the new settings
	 */
	public WorkerSettings withOrdering(Ordering ordering, int maxInFlight) {
		return new WorkerSettings(this.name, this.sourceTopics, this.destination, this.groupId, this.transactionalId,
				this.consumerProperties, this.producerProperties, this.codecs, this.concurrency, this.pollTimeout,
				this.transaction, this.invalidInput, this.recovery, this.bounds, this.shutdownTimeout, ordering,
				maxInFlight, this.observations, this.membership);
	}

	/**
	 * Return these settings with observations.
	 * @param observations the worker's observations
	 * @return the new settings
	 */
	public WorkerSettings withObservations(WorkerObservations observations) {
		return new WorkerSettings(this.name, this.sourceTopics, this.destination, this.groupId, this.transactionalId,
				this.consumerProperties, this.producerProperties, this.codecs, this.concurrency, this.pollTimeout,
				this.transaction, this.invalidInput, this.recovery, this.bounds, this.shutdownTimeout, this.ordering,
				this.maxInFlight, observations, this.membership);
	}

	/**
	 * Return these settings with another group membership.
	 * @param membership how each slot's consumer is a member of the group
	 * @return the new settings
	 */
	public WorkerSettings withMembership(Membership membership) {
		return new WorkerSettings(this.name, this.sourceTopics, this.destination, this.groupId, this.transactionalId,
				this.consumerProperties, this.producerProperties, this.codecs, this.concurrency, this.pollTimeout,
				this.transaction, this.invalidInput, this.recovery, this.bounds, this.shutdownTimeout, this.ordering,
				this.maxInFlight, this.observations, membership);
	}

	/**
	 * The producer's {@code max.block.ms}: the longest one producer call may block.
	 * @return the configured value, or the client's default of one minute
	 */
	public Duration producerMaxBlock() {
		Object value = this.producerProperties.get("max.block.ms");
		return (value != null) ? Duration.ofMillis(Long.parseLong(value.toString().trim())) : Duration.ofMinutes(1);
	}

	/**
	 * The transactional id of one slot: stable across restarts, so a restarted slot
	 * fences its predecessor and aborts its open transaction at once.
	 * @param slot the slot index, from 0
	 * @return the transactional id
	 */
	public String transactionalId(int slot) {
		return this.transactionalId + "-" + slot;
	}

	/**
	 * How each slot's consumer is a member of the worker's group.
	 *
	 * @param staticMembers whether each slot is a static member whose {@code group.instance.id}
	 * is its transactional id: a slot that restarts (after a crash too) takes its place back
	 * instead of joining as a new member, which under the classic protocol keeps its
	 * partitions without a rebalance
	 * @param leaveOnStop whether a graceful stop leaves the group, so that its partitions move
	 * to the other members at once; {@code false} (static members only) keeps the member's
	 * place and partitions for its restart until its session times out
	 */
	public record Membership(boolean staticMembers, boolean leaveOnStop) {

		/** A new member on every start, leaving the group on a graceful stop. */
		public static final Membership DYNAMIC = new Membership(false, true);

		/** A static member per slot, leaving the group on a graceful stop. */
		public static final Membership STATIC = new Membership(true, true);

		public Membership {
			if (!staticMembers && !leaveOnStop) {
				throw new IllegalArgumentException("Only a static member can keep its place in the group on a stop");
			}
		}

		/**
		 * The default membership for a group protocol: {@link #STATIC} under the classic
		 * protocol, where a slot restarted after a crash gets its partitions back at once
		 * instead of after the dead member's session timeout; {@link #DYNAMIC} under the
		 * consumer protocol (KIP-848), where a crashed member's partitions wait for its
		 * session timeout either way and a static member's id can be refused to itself
		 * (measured: README, "Compatibility").
		 * @param consumerProperties the consumer properties, whose {@code group.protocol} decides
		 * @return the default membership
		 */
		public static Membership defaultFor(Map<String, Object> consumerProperties) {
			Object protocol = consumerProperties.get("group.protocol");
			return (protocol != null && protocol.toString().trim().equalsIgnoreCase("consumer")) ? DYNAMIC : STATIC;
		}

	}

	/**
	 * The codecs of a worker's input and output. Each must be thread-safe: slots share them.
	 * A codec says what its failures mean by their type: an exception of one of the
	 * {@code invalidData} types means bytes (or a value) that can never be decoded (or
	 * encoded), and the record is invalid input; any other failure is transient, and the
	 * transaction is aborted and replayed.
	 *
	 * @param keyDeserializer decodes input keys
	 * @param valueDeserializer decodes input values
	 * @param keySerializer encodes output keys
	 * @param valueSerializer encodes output values
	 * @param invalidData the exception types by which the codecs report invalid data
	 */
	public record Codecs(Deserializer<?> keyDeserializer, Deserializer<?> valueDeserializer,
			Serializer<?> keySerializer, Serializer<?> valueSerializer, List<Class<? extends Throwable>> invalidData) {

		public Codecs {
			invalidData = List.copyOf(invalidData);
		}

		/**
		 * Create codecs that report no failure as invalid data.
		 * @param keyDeserializer decodes input keys
		 * @param valueDeserializer decodes input values
		 * @param keySerializer encodes output keys
		 * @param valueSerializer encodes output values
		 */
		public Codecs(Deserializer<?> keyDeserializer, Deserializer<?> valueDeserializer,
				Serializer<?> keySerializer, Serializer<?> valueSerializer) {
			this(keyDeserializer, valueDeserializer, keySerializer, valueSerializer, List.of());
		}

	}

	/**
	 * When an open transaction is committed: after this many input records or this long
	 * after it began, whichever comes first, checked before every record. A transaction
	 * may span several polls.
	 *
	 * @param maxRecords the most input records in one transaction
	 * @param maxInterval the longest a transaction stays open
	 * @param timeout the producer's {@code transaction.timeout.ms}: the coordinator aborts
	 * a transaction open longer
	 */
	public record TransactionSizing(int maxRecords, Duration maxInterval, Duration timeout) {

		/** Kafka's default transaction timeout. */
		public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(1);

		/**
		 * Create sizing with Kafka's default transaction timeout of one minute.
		 * @param maxRecords the most input records in one transaction
		 * @param maxInterval the longest a transaction stays open
		 */
		public TransactionSizing(int maxRecords, Duration maxInterval) {
			this(maxRecords, maxInterval, DEFAULT_TIMEOUT);
		}

	}

	/**
	 * What happens to a record that can never be processed (malformed bytes, a schema id
	 * the registry does not know, a processor's {@link InvalidRecordException}).
	 *
	 * @param mode block the worker at the record, or quarantine it
	 * @param quarantineTopic where quarantined records go, for {@link Mode#QUARANTINE}
	 * @param guard when quarantine blocks instead
	 */
	public record InvalidInputPolicy(Mode mode, String quarantineTopic, QuarantineGuard guard) {

		/**
		 * Create a policy with the default guard.
		 * @param mode block the worker at the record, or quarantine it
		 * @param quarantineTopic where quarantined records go, for {@link Mode#QUARANTINE}
		 */
		public InvalidInputPolicy(Mode mode, String quarantineTopic) {
			this(mode, quarantineTopic, QuarantineGuard.DEFAULT);
		}

		/**
		 * Under {@link Mode#QUARANTINE}, a slot blocks instead when more than
		 * {@code maxRatio} of its last {@code window} records were invalid: a worker pointed
		 * at the wrong registry or topic must not move a whole topic into quarantine.
		 *
		 * @param window how many of a slot's most recent records are counted
		 * @param maxRatio the share of invalid records among them above which the slot blocks
		 */
		public record QuarantineGuard(int window, double maxRatio) {

			/** More than half of the last 100 records. */
			public static final QuarantineGuard DEFAULT = new QuarantineGuard(100, 0.5);

			public QuarantineGuard {
				if (window < 1) {
					throw new IllegalArgumentException("Guard window must be at least 1, not " + window);
				}
				if (!(maxRatio > 0 && maxRatio <= 1)) {
					throw new IllegalArgumentException("Guard ratio must be above 0 and at most 1, not " + maxRatio);
				}
			}

		}

		/**
		 * The invalid-input modes.
		 */
		public enum Mode {

			/** Commit nothing past the record; retry it with backoff; report BLOCKED. */
			BLOCK,

			/** Write the raw record and error headers to the quarantine topic, in the transaction. */
			QUARANTINE

		}

	}

	/**
	 * Exponential back-off between recovery attempts, and when a slot that keeps failing
	 * reports itself {@link WorkerStatus#STALLED}.
	 *
	 * @param initialBackoff the first wait
	 * @param maxBackoff the longest wait
	 * @param stallAfter consecutive failed transactions (recoveries) without a commit after
	 * which the slot is STALLED (until it commits or polls quietly again)
	 */
	public record Recovery(Duration initialBackoff, Duration maxBackoff, int stallAfter) {

		/** A slot is STALLED after 5 consecutive failed transactions by default. */
		public static final int DEFAULT_STALL_AFTER = 5;

		public Recovery {
			if (stallAfter < 1) {
				throw new IllegalArgumentException("Stall threshold must be at least 1, not " + stallAfter);
			}
		}

		/**
		 * Create a recovery setting with the default stall threshold.
		 * @param initialBackoff the first wait
		 * @param maxBackoff the longest wait
		 */
		public Recovery(Duration initialBackoff, Duration maxBackoff) {
			this(initialBackoff, maxBackoff, DEFAULT_STALL_AFTER);
		}

	}

	/**
	 * Bounds for one-shot runs.
	 *
	 * @param stopAfterRecords stop once this many input records are committed (0: never)
	 * @param idleTimeout fail when no input arrives for this long (null: wait forever)
	 */
	public record Bounds(long stopAfterRecords, Duration idleTimeout) {

		/** No bounds: a long-running worker. */
		public static final Bounds NONE = new Bounds(0, null);

	}

	/**
	 * Which records of a slot may be processed at the same time. Whatever the ordering,
	 * an input offset is committed only in the transaction that holds the outputs of that
	 * record and of every earlier record of its partition, and outputs are sent in input
	 * order per partition.
	 */
	public enum Ordering {

		/** One record of a slot at a time, in offset order. */
		PARTITION,

		/**
		 * Records with the same key (per partition) one at a time in offset order, different
		 * keys at the same time; records without a key in no order. The processor must be
		 * thread-safe.
		 */
		KEY,

		/** Any records at the same time. The processor must be thread-safe. */
		NONE

	}

}
