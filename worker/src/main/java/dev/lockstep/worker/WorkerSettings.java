package dev.lockstep.worker;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.lockstep.worker.observation.WorkerObservations;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Everything a {@link Worker} needs, resolved: Kafka client properties already merged
 * (connection, security and the worker's own), codecs already built. Configuration
 * classes build this from {@code lockstep.workers.<name>.*}; code without Spring Boot and
 * tests build it with {@link #builder(String)}. Every default is defined here, once, and
 * the YAML binding starts from the same values.
 *
 * @param name the worker's name, used in thread names, logs and metrics
 * @param sourceTopics the topics consumed
 * @param destination the topic {@link Output#toDestination} writes to
 * @param groupId the consumer group ({@link #defaultGroupId the worker's name} unless set)
 * @param transactionalId the base of each slot's transactional id
 * ({@code <base>-<instance>-<slot>}, {@link #transactionalId(int)}; {@link #defaultTransactionalId
 * the group id} unless set)
 * @param consumerProperties consumer properties (bootstrap servers, security, tuning;
 * {@code auto.offset.reset} {@value #DEFAULT_AUTO_OFFSET_RESET} unless set)
 * @param producerProperties producer properties (bootstrap servers, security, tuning;
 * {@code batch.size} {@value #DEFAULT_PRODUCER_BATCH_SIZE} unless set)
 * @param codecs the key and value codecs of input and output
 * @param concurrency the number of slots, each one consumer and one transactional producer
 * @param pollTimeout the longest a poll waits for records
 * @param transaction when an open transaction is committed
 * @param invalidInput what happens to records that can never be processed
 * @param recovery the back-off between recovery attempts, and when a slot counts as stalled
 * @param retry the budget of attempts of a record whose processor fails ({@link Retry#NONE}: none)
 * @param bounds optional bounds for one-shot runs
 * @param shutdownTimeout the longest a graceful stop waits for the slots
 * @param ordering which records of a slot may be processed at the same time
 * @param maxInFlight the most records a slot processes at once (1 under
 * {@link Ordering#PARTITION})
 * @param observations the worker's observations ({@link WorkerObservations#NONE} for none)
 * @param membership how each slot's consumer is a member of the group (unless given,
 * {@link Membership#defaultFor the default for its group protocol and identity})
 * @param instance this running instance's identity, part of each transactional id (unless
 * given, {@link InstanceIdentity#resolve resolved from the environment})
 */
public record WorkerSettings(String name, List<String> sourceTopics, String destination, String groupId,
		String transactionalId, Map<String, Object> consumerProperties, Map<String, Object> producerProperties,
		Codecs codecs, int concurrency, Duration pollTimeout, TransactionSizing transaction,
		InvalidInputPolicy invalidInput, Recovery recovery, Retry retry, Bounds bounds, Duration shutdownTimeout,
		Ordering ordering, int maxInFlight, WorkerObservations observations, Membership membership,
		InstanceIdentity instance) {

	/**
	 * Return whether consumer properties choose the consumer group protocol of KIP-848
	 * ({@code group.protocol=consumer}, as text or Kafka's enum) over the classic one.
	 * @param consumerProperties the consumer properties
	 * @return whether the consumer group protocol is configured
	 */
	public static boolean usesConsumerGroupProtocol(Map<String, Object> consumerProperties) {
		Object protocol = consumerProperties.get("group.protocol");
		return protocol != null && protocol.toString().trim().equalsIgnoreCase("consumer");
	}

	/** One slot unless set. */
	public static final int DEFAULT_CONCURRENCY = 1;

	/** The longest a poll waits for records unless set. */
	public static final Duration DEFAULT_POLL_TIMEOUT = Duration.ofMillis(100);

	/** The longest a graceful stop waits for the slots unless set. */
	public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

	/** Records in flight per slot under {@link Ordering#KEY} and {@link Ordering#NONE} unless set. */
	public static final int DEFAULT_MAX_IN_FLIGHT = 256;

	/**
	 * The producer's {@code batch.size} unless set: a transaction's outputs are flushed at
	 * once at commit, and batches larger than the client's 16 KiB mean fewer produce
	 * requests for the broker (measured: docs/performance.md).
	 */
	public static final int DEFAULT_PRODUCER_BATCH_SIZE = 128 * 1024;

	// kafka-clients' own default max.block.ms.
	private static final Duration CLIENT_MAX_BLOCK = Duration.ofMinutes(1);

	/** Where a new group starts reading unless set: every record already in the topic. */
	public static final String DEFAULT_AUTO_OFFSET_RESET = "earliest";

	public WorkerSettings {
		if (sourceTopics.isEmpty()) {
			throw new IllegalArgumentException("Worker '" + name + "' consumes no topic");
		}
		Objects.requireNonNull(codecs, () -> "Worker '" + name + "' has no codecs");
		groupId = (groupId != null) ? groupId : defaultGroupId(name);
		transactionalId = (transactionalId != null) ? transactionalId : defaultTransactionalId(groupId);
		sourceTopics = List.copyOf(sourceTopics);
		consumerProperties = withDefault(consumerProperties, "auto.offset.reset", DEFAULT_AUTO_OFFSET_RESET);
		producerProperties = withDefault(producerProperties, "batch.size", DEFAULT_PRODUCER_BATCH_SIZE);
		if (observations == null) {
			observations = WorkerObservations.NONE;
		}
		if (instance == null) {
			instance = InstanceIdentity.resolve(System.getenv());
		}
		if (membership == null) {
			membership = Membership.defaultFor(consumerProperties, instance);
		}
		if (membership.staticMembers() && !instance.isStable()) {
			throw new IllegalArgumentException("Worker '" + name + "' cannot have static members with instance id "
					+ instance + ": a static member's id must come back after a restart, or its partitions wait "
					+ "for its session to time out; give the instance an id or use dynamic members");
		}
		if (concurrency < 1) {
			throw new IllegalArgumentException("Concurrency must be at least 1, not " + concurrency);
		}
		if (maxInFlight < 1 || (ordering == Ordering.PARTITION && maxInFlight != 1)) {
			throw new IllegalArgumentException("Max in flight must be at least 1, and 1 under ordering PARTITION, not "
					+ maxInFlight + " under " + ordering);
		}
		if (retry == null) {
			retry = Retry.NONE;
		}
		if (retry.isEnabled() && retry.exhausted() == InvalidInputPolicy.Mode.QUARANTINE
				&& (invalidInput.quarantineTopic() == null || invalidInput.quarantineTopic().isBlank())) {
			throw new IllegalArgumentException("Worker '" + name + "' quarantines records whose retries are spent, "
					+ "but has no quarantine topic");
		}
	}

	/**
	 * Start building the settings of a worker; what is not set keeps its default.
	 * @param name the worker's name, used in thread names, logs and metrics
	 * @return a builder
	 */
	public static Builder builder(String name) {
		return new Builder(name);
	}

	private static Map<String, Object> withDefault(Map<String, Object> properties, String key, Object value) {
		Map<String, Object> copy = new HashMap<>(properties);
		copy.putIfAbsent(key, value);
		return Map.copyOf(copy);
	}

	/**
	 * The group of a worker that names none: its name.
	 * @param name the worker's name
	 * @return the group id
	 */
	public static String defaultGroupId(String name) {
		return name;
	}

	/**
	 * The base of the transactional ids of a worker that names none: its group id.
	 * @param groupId the worker's group id
	 * @return the base
	 */
	public static String defaultTransactionalId(String groupId) {
		return groupId;
	}

	/**
	 * Return a builder holding these settings, to change some of them.
	 * @return a builder
	 */
	public Builder toBuilder() {
		Builder builder = new Builder(this.name).sourceTopics(this.sourceTopics)
			.destination(this.destination)
			.groupId(this.groupId)
			.transactionalId(this.transactionalId)
			.consumerProperties(this.consumerProperties)
			.producerProperties(this.producerProperties)
			.codecs(this.codecs)
			.concurrency(this.concurrency)
			.pollTimeout(this.pollTimeout)
			.transaction(this.transaction)
			.invalidInput(this.invalidInput)
			.recovery(this.recovery)
			.retry(this.retry)
			.bounds(this.bounds)
			.shutdownTimeout(this.shutdownTimeout)
			.ordering(this.ordering)
			.observations(this.observations)
			.instance(this.instance)
			// A default follows what it was derived from, if that changes.
			.membership(this.membership.equals(Membership.defaultFor(this.consumerProperties, this.instance)) ? null
					: this.membership);
		// Under PARTITION the one record in flight is the ordering's, not a setting to carry over.
		return (this.ordering != Ordering.PARTITION) ? builder.maxInFlight(this.maxInFlight) : builder;
	}

	/**
	 * The producer's {@code max.block.ms}: the longest one producer call may block inside
	 * the open transaction. Unless set, half of what the transaction timeout leaves after
	 * the max interval; the client's own default of one minute where the timeout leaves
	 * nothing (a sizing the YAML refuses).
	 * @return the configured value, or that default
	 */
	public Duration producerMaxBlock() {
		Object value = this.producerProperties.get("max.block.ms");
		if (value != null) {
			return Duration.ofMillis(Long.parseLong(value.toString().trim()));
		}
		Duration left = this.transaction.timeout().minus(this.transaction.maxInterval());
		return (left.compareTo(Duration.ZERO) > 0) ? left.dividedBy(2) : CLIENT_MAX_BLOCK;
	}

	/**
	 * The transactional id of one slot, {@code <base>-<instance>-<slot>}: unique per
	 * instance, so replicas of one configuration never fence each other; stable across
	 * restarts where the {@link InstanceIdentity#isStable() identity is}, so a restarted
	 * slot fences its predecessor and aborts its open transaction at once.
	 * @param slot the slot index, from 0
	 * @return the transactional id
	 */
	public String transactionalId(int slot) {
		return instanceTransactionalId() + "-" + slot;
	}

	/**
	 * The base of this instance's slots' transactional ids: the configured base with the
	 * instance added ({@link InstanceIdentity#transactionalIdBase}).
	 * @return {@code <base>-<instance>}, or the base where it already carries the instance
	 */
	public String instanceTransactionalId() {
		return this.instance.transactionalIdBase(this.transactionalId);
	}

	/**
	 * Builds {@link WorkerSettings}: the topics, group, transactional id and codecs are the
	 * worker's own; everything else starts at its default.
	 */
	public static final class Builder {

		private final String name;

		private List<String> sourceTopics = List.of();

		private String destination;

		private String groupId;

		private String transactionalId;

		private Map<String, Object> consumerProperties = Map.of();

		private Map<String, Object> producerProperties = Map.of();

		private Codecs codecs;

		private int concurrency = DEFAULT_CONCURRENCY;

		private Duration pollTimeout = DEFAULT_POLL_TIMEOUT;

		private TransactionSizing transaction = TransactionSizing.DEFAULT;

		private InvalidInputPolicy invalidInput = InvalidInputPolicy.BLOCK;

		private Recovery recovery = Recovery.DEFAULT;

		private Retry retry = Retry.NONE;

		private Bounds bounds = Bounds.NONE;

		private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;

		private Ordering ordering = Ordering.PARTITION;

		private Integer maxInFlight;

		private WorkerObservations observations = WorkerObservations.NONE;

		private Membership membership;

		private InstanceIdentity instance;

		private Builder(String name) {
			this.name = name;
		}

		/**
		 * The topics consumed.
		 * @param sourceTopics the topics
		 * @return this builder
		 */
		public Builder sourceTopics(List<String> sourceTopics) {
			this.sourceTopics = sourceTopics;
			return this;
		}

		/**
		 * The topics consumed.
		 * @param sourceTopics the topics
		 * @return this builder
		 */
		public Builder sourceTopics(String... sourceTopics) {
			return sourceTopics(List.of(sourceTopics));
		}

		/**
		 * The topic {@link Output#toDestination} writes to.
		 * @param destination the topic
		 * @return this builder
		 */
		public Builder destination(String destination) {
			this.destination = destination;
			return this;
		}

		/**
		 * The consumer group (unless set: {@link #defaultGroupId the worker's name}).
		 * @param groupId the group id
		 * @return this builder
		 */
		public Builder groupId(String groupId) {
			this.groupId = groupId;
			return this;
		}

		/**
		 * The base of each slot's transactional id ({@code <base>-<instance>-<slot>}; unless
		 * set, {@link #defaultTransactionalId the group id}).
		 * @param transactionalId the base
		 * @return this builder
		 */
		public Builder transactionalId(String transactionalId) {
			this.transactionalId = transactionalId;
			return this;
		}

		/**
		 * The consumer's properties (bootstrap servers, security, tuning); the worker sets
		 * the exactly-once ones itself.
		 * @param consumerProperties the properties
		 * @return this builder
		 */
		public Builder consumerProperties(Map<String, Object> consumerProperties) {
			this.consumerProperties = consumerProperties;
			return this;
		}

		/**
		 * The producer's properties (bootstrap servers, security, tuning); the worker sets
		 * the exactly-once ones itself.
		 * @param producerProperties the properties
		 * @return this builder
		 */
		public Builder producerProperties(Map<String, Object> producerProperties) {
			this.producerProperties = producerProperties;
			return this;
		}

		/**
		 * The key and value codecs of input and output.
		 * @param codecs the codecs
		 * @return this builder
		 */
		public Builder codecs(Codecs codecs) {
			this.codecs = codecs;
			return this;
		}

		/**
		 * The number of slots, each one consumer and one transactional producer.
		 * @param concurrency the number of slots
		 * @return this builder
		 */
		public Builder concurrency(int concurrency) {
			this.concurrency = concurrency;
			return this;
		}

		/**
		 * The longest a poll waits for records.
		 * @param pollTimeout the timeout
		 * @return this builder
		 */
		public Builder pollTimeout(Duration pollTimeout) {
			this.pollTimeout = pollTimeout;
			return this;
		}

		/**
		 * When an open transaction is committed.
		 * @param transaction the sizing
		 * @return this builder
		 */
		public Builder transaction(TransactionSizing transaction) {
			this.transaction = transaction;
			return this;
		}

		/**
		 * What happens to records that can never be processed.
		 * @param invalidInput the policy
		 * @return this builder
		 */
		public Builder invalidInput(InvalidInputPolicy invalidInput) {
			this.invalidInput = invalidInput;
			return this;
		}

		/**
		 * The back-off between recovery attempts, and when a slot counts as stalled.
		 * @param recovery the recovery settings
		 * @return this builder
		 */
		public Builder recovery(Recovery recovery) {
			this.recovery = recovery;
			return this;
		}

		/**
		 * The budget of attempts of a record whose processor fails.
		 * @param retry the retry settings
		 * @return this builder
		 */
		public Builder retry(Retry retry) {
			this.retry = retry;
			return this;
		}

		/**
		 * Bounds for a one-shot run.
		 * @param bounds the bounds
		 * @return this builder
		 */
		public Builder bounds(Bounds bounds) {
			this.bounds = bounds;
			return this;
		}

		/**
		 * The longest a graceful stop waits for the slots.
		 * @param shutdownTimeout the timeout
		 * @return this builder
		 */
		public Builder shutdownTimeout(Duration shutdownTimeout) {
			this.shutdownTimeout = shutdownTimeout;
			return this;
		}

		/**
		 * Which records of a slot may be processed at the same time.
		 * @param ordering the ordering
		 * @return this builder
		 */
		public Builder ordering(Ordering ordering) {
			this.ordering = ordering;
			return this;
		}

		/**
		 * The most records a slot processes at once under {@link Ordering#KEY} and
		 * {@link Ordering#NONE} (unless set: {@link #DEFAULT_MAX_IN_FLIGHT}); under
		 * {@link Ordering#PARTITION} it is 1 whatever is set, as in the YAML.
		 * @param maxInFlight the most records in flight
		 * @return this builder
		 */
		public Builder maxInFlight(int maxInFlight) {
			this.maxInFlight = maxInFlight;
			return this;
		}

		/**
		 * The worker's observations.
		 * @param observations the observations
		 * @return this builder
		 */
		public Builder observations(WorkerObservations observations) {
			this.observations = observations;
			return this;
		}

		/**
		 * How each slot's consumer is a member of the group, instead of
		 * {@link Membership#defaultFor the default for its group protocol}.
		 * @param membership the membership
		 * @return this builder
		 */
		public Builder membership(Membership membership) {
			this.membership = membership;
			return this;
		}

		/**
		 * This running instance's identity, instead of one {@link InstanceIdentity#resolve
		 * resolved from the environment}.
		 * @param instance the identity
		 * @return this builder
		 */
		public Builder instance(InstanceIdentity instance) {
			this.instance = instance;
			return this;
		}

		/**
		 * Build the settings.
		 * @return the settings
		 * @throws IllegalArgumentException if a setting is out of its range
		 */
		public WorkerSettings build() {
			int inFlight = (this.ordering == Ordering.PARTITION) ? 1
					: (this.maxInFlight != null) ? this.maxInFlight : DEFAULT_MAX_IN_FLIGHT;
			return new WorkerSettings(this.name, this.sourceTopics, this.destination, this.groupId,
					this.transactionalId, this.consumerProperties, this.producerProperties, this.codecs,
					this.concurrency, this.pollTimeout, this.transaction, this.invalidInput, this.recovery, this.retry,
					this.bounds,
					this.shutdownTimeout, this.ordering, inFlight, this.observations, this.membership, this.instance);
		}

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
		 * The default membership for a group protocol and an instance: {@link #STATIC} under
		 * the classic protocol for a {@link InstanceIdentity#isStable() stable} identity,
		 * where a slot restarted after a crash gets its partitions back at once instead of
		 * after the dead member's session timeout; {@link #DYNAMIC} for a generated identity
		 * (its members never come back: their partitions would wait for the session timeout
		 * after a crash) and under the consumer protocol (KIP-848), where a crashed member's
		 * partitions wait for its session timeout either way and a static member's id can be
		 * refused to itself (measured: docs/compatibility.md).
		 * @param consumerProperties the consumer properties, whose {@code group.protocol} decides
		 * @param instance the instance's identity
		 * @return the default membership
		 */
		public static Membership defaultFor(Map<String, Object> consumerProperties, InstanceIdentity instance) {
			return (usesConsumerGroupProtocol(consumerProperties) || !instance.isStable()) ? DYNAMIC : STATIC;
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

		/**
		 * The transaction timeout unless set: well under Kafka's default of one minute, so
		 * that a transaction a dead slot left open is aborted, and its partitions read on,
		 * within seconds.
		 */
		public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

		/** At most 50,000 records or 100 ms a transaction, with the default timeout. */
		public static final TransactionSizing DEFAULT = new TransactionSizing(50_000, Duration.ofMillis(100));

		/**
		 * Create sizing with the default transaction timeout.
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

		/** Block at the first invalid record: the default. */
		public static final InvalidInputPolicy BLOCK = new InvalidInputPolicy(Mode.BLOCK, null);

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

		/** Back-off from 100 ms up to 10 s; STALLED after {@value #DEFAULT_STALL_AFTER} failed transactions. */
		public static final Recovery DEFAULT = new Recovery(Duration.ofMillis(100), Duration.ofSeconds(10));

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
	 * A budget of attempts for each record whose processor fails with a retryable failure
	 * (one the {@link FailureClassifier} and the {@link RecoveryPolicy} leave
	 * {@link FailureCategory#ABORTABLE}, of a type in {@code retryOn} when that is not
	 * empty): the record's partition waits, holding no transaction, while the other
	 * partitions go on; once the attempts are spent the record is quarantined or blocked at.
	 * Fences, fatal errors, invalid input and failures outside the processor never use it.
	 *
	 * @param attempts how many times a record is processed at most (1: no retry, the slot
	 * recovers from each failure by replaying its transaction)
	 * @param initialBackoff the wait before the second attempt
	 * @param multiplier how much each further wait grows
	 * @param maxBackoff the longest wait
	 * @param jitter the share of each wait varied at random, either way (0 to 1)
	 * @param exhausted what becomes of a record whose attempts are spent: written to the
	 * invalid input's quarantine topic, or blocked at
	 * @param retryOn the failures retried, matched against the failure and its causes
	 * (empty: every failure of the processor that is not invalid input)
	 */
	public record Retry(int attempts, Duration initialBackoff, double multiplier, Duration maxBackoff, double jitter,
			InvalidInputPolicy.Mode exhausted, List<Class<? extends Throwable>> retryOn) {

		/** No retry: one attempt. */
		public static final Retry NONE = new Retry(1, Duration.ofSeconds(1), 2.0, Duration.ofSeconds(30), 0.1,
				InvalidInputPolicy.Mode.BLOCK, List.of());

		public Retry {
			if (attempts < 1) {
				throw new IllegalArgumentException("Retry attempts must be at least 1, not " + attempts);
			}
			if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
				throw new IllegalArgumentException("Retry back-off must be from 0 up to its maximum, not "
						+ initialBackoff + " up to " + maxBackoff);
			}
			if (!(multiplier >= 1)) {
				throw new IllegalArgumentException("Retry multiplier must be at least 1, not " + multiplier);
			}
			if (!(jitter >= 0 && jitter <= 1)) {
				throw new IllegalArgumentException("Retry jitter must be from 0 to 1, not " + jitter);
			}
			retryOn = List.copyOf(retryOn);
		}

		/**
		 * Return whether a record is ever processed more than once for a failure.
		 * @return whether more than one attempt is allowed
		 */
		public boolean isEnabled() {
			return this.attempts > 1;
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
