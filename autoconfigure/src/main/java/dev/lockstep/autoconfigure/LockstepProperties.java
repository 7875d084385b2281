package dev.lockstep.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.lockstep.autoconfigure.observation.NewTraces;
import dev.lockstep.autoconfigure.observation.SampledParents;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.SchemaIdFraming;
import dev.lockstep.registry.kafka.SubjectNameStrategy;
import dev.lockstep.registry.server.Compatibility;
import dev.lockstep.worker.WorkerSettings;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of Lockstep: the schema registry, topics, transactional workers and
 * named transactional producers ({@code lockstep.*}). Connection and security settings
 * come from Spring Boot's {@code spring.kafka.*}.
 */
@ConfigurationProperties("lockstep")
public class LockstepProperties {

	/**
	 * This instance's identity among replicas of one configuration, part of every slot's
	 * transactional id; unset: a StatefulSet pod's name, else generated at start-up.
	 */
	private String instanceId;

	private final Registry registry = new Registry();

	/**
	 * Topics to create at start-up, by name.
	 */
	private final Map<String, Topic> topics = new LinkedHashMap<>();

	/**
	 * Transactional consume-transform-produce workers, by name.
	 */
	private final Map<String, Worker> workers = new LinkedHashMap<>();

	/**
	 * Named transactional producers for application code, by bean name.
	 */
	private final Map<String, Producer> producers = new LinkedHashMap<>();

	private final Listener listener = new Listener();

	private final Security security = new Security();

	private final Observations observations = new Observations();

	private final Dev dev = new Dev();

	public String getInstanceId() {
		return this.instanceId;
	}

	public void setInstanceId(String instanceId) {
		this.instanceId = instanceId;
	}

	public Registry getRegistry() {
		return this.registry;
	}

	public Map<String, Topic> getTopics() {
		return this.topics;
	}

	public Map<String, Worker> getWorkers() {
		return this.workers;
	}

	public Map<String, Producer> getProducers() {
		return this.producers;
	}

	public Listener getListener() {
		return this.listener;
	}

	public Security getSecurity() {
		return this.security;
	}

	public Observations getObservations() {
		return this.observations;
	}

	public Dev getDev() {
		return this.dev;
	}

	/**
	 * Schema registry client settings.
	 */
	public static class Registry {

		/**
		 * Registry base URLs; a request fails over to the next one.
		 */
		private List<String> url = new ArrayList<>();

		/**
		 * User for HTTP Basic authentication.
		 */
		private String username;

		/**
		 * Password for HTTP Basic authentication.
		 */
		private String password;

		/**
		 * Static bearer token, instead of Basic authentication.
		 */
		private String bearerToken;

		/**
		 * PEM file of CA certificates to trust instead of the JDK's trust store.
		 */
		private String caFile;

		/**
		 * SSL bundle (spring.ssl.bundle.*) for registry HTTPS: its key store presents a client
		 * certificate (mutual TLS), its trust store replaces the JDK's; exclusive with ca-file.
		 */
		private String sslBundle;

		/**
		 * Deadline of one request, connect, headers and body included. A registry-avro worker
		 * can wait (retries + 1) x URLs x timeout, plus back-offs, inside an open transaction.
		 */
		private Duration timeout = RegistryClient.Builder.DEFAULT_TIMEOUT;

		/**
		 * Largest response body accepted.
		 */
		private DataSize maxResponseSize = DataSize.ofBytes(RegistryClient.Builder.DEFAULT_MAX_RESPONSE_BYTES);

		/**
		 * Entries of each registry cache.
		 */
		private int cacheCapacity = RegistryClient.Builder.DEFAULT_CACHE_CAPACITY;

		/**
		 * Retries of retryable failures (I/O, timeouts, 408, 429, 5xx); 0 turns retrying off.
		 */
		private int retries = RegistryClient.Builder.DEFAULT_RETRIES;

		/**
		 * Whether registry serializers register schemas that are not registered yet.
		 */
		private boolean autoRegister = false;

		/**
		 * Whether the registry normalizes schemas on registration and look-up alike.
		 */
		private boolean normalizeSchemas = false;

		/**
		 * Data-contract rules, by name or type, that codecs go on without instead of refusing their schema.
		 */
		private Set<String> ignoredRules = new LinkedHashSet<>();

		public List<String> getUrl() {
			return this.url;
		}

		public void setUrl(List<String> url) {
			this.url = url;
		}

		public String getUsername() {
			return this.username;
		}

		public void setUsername(String username) {
			this.username = username;
		}

		public String getPassword() {
			return this.password;
		}

		public void setPassword(String password) {
			this.password = password;
		}

		public String getBearerToken() {
			return this.bearerToken;
		}

		public void setBearerToken(String bearerToken) {
			this.bearerToken = bearerToken;
		}

		public String getCaFile() {
			return this.caFile;
		}

		public void setCaFile(String caFile) {
			this.caFile = caFile;
		}

		public String getSslBundle() {
			return this.sslBundle;
		}

		public void setSslBundle(String sslBundle) {
			this.sslBundle = sslBundle;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public DataSize getMaxResponseSize() {
			return this.maxResponseSize;
		}

		public void setMaxResponseSize(DataSize maxResponseSize) {
			this.maxResponseSize = maxResponseSize;
		}

		public int getCacheCapacity() {
			return this.cacheCapacity;
		}

		public void setCacheCapacity(int cacheCapacity) {
			this.cacheCapacity = cacheCapacity;
		}

		public int getRetries() {
			return this.retries;
		}

		public void setRetries(int retries) {
			this.retries = retries;
		}

		public boolean isAutoRegister() {
			return this.autoRegister;
		}

		public void setAutoRegister(boolean autoRegister) {
			this.autoRegister = autoRegister;
		}

		public boolean isNormalizeSchemas() {
			return this.normalizeSchemas;
		}

		public void setNormalizeSchemas(boolean normalizeSchemas) {
			this.normalizeSchemas = normalizeSchemas;
		}

		public Set<String> getIgnoredRules() {
			return this.ignoredRules;
		}

		public void setIgnoredRules(Set<String> ignoredRules) {
			this.ignoredRules = ignoredRules;
		}

	}

	/**
	 * A topic created at start-up when it does not exist.
	 */
	public static class Topic {

		/**
		 * Number of partitions.
		 */
		private int partitions = 1;

		/**
		 * Replication factor; -1 uses the broker's default.
		 */
		private short replicas = -1;

		/**
		 * Topic configuration, such as cleanup.policy or retention.ms.
		 */
		private Map<String, String> config = new HashMap<>();

		public int getPartitions() {
			return this.partitions;
		}

		public void setPartitions(int partitions) {
			this.partitions = partitions;
		}

		public short getReplicas() {
			return this.replicas;
		}

		public void setReplicas(short replicas) {
			this.replicas = replicas;
		}

		public Map<String, String> getConfig() {
			return this.config;
		}

		public void setConfig(Map<String, String> config) {
			this.config = config;
		}

	}

	/**
	 * How the keys or values of a topic are encoded.
	 */
	public static class Codec {

		/**
		 * Encoding: bytes, string, json, raw-avro or protobuf (no framing), registry-avro,
		 * registry-json-schema or registry-protobuf (Confluent wire format), or the name of a
		 * LockstepCodec bean.
		 */
		private String codec = "bytes";

		/**
		 * Generated Avro record class, for raw-avro (required) and registry-avro (reader type;
		 * generic records when absent; org.apache.avro.specific.SpecificRecord itself: the
		 * generated class each record's writer schema names); generated Protobuf message class, for protobuf
		 * (required) and registry-protobuf (reader type; DynamicMessage when absent;
		 * com.google.protobuf.Message itself: the generated class of each record's writer
		 * message); for json
		 * and registry-json-schema, the class JSON maps to (JsonNode when absent).
		 */
		private Class<?> type;

		/**
		 * JSON schema a registry-json-schema codec writes with (classpath:<resource> or a
		 * file); the subject's latest version's when absent.
		 */
		private String schema;

		/**
		 * Where a registry codec's serializer names the schema: prefix (magic byte and id
		 * before the payload) or header (the schema's GUID in __key_schema_id or
		 * __value_schema_id, the payload bare). Readers read either.
		 */
		private SchemaIdFraming schemaId = SchemaIdFraming.PREFIX;

		/**
		 * Subject a registry codec's serializer writes under: topic-name (the topic, then
		 * -key or -value), record-name (the record's full name, so that a topic carries
		 * several event types) or topic-record-name.
		 */
		private SubjectNameStrategy subjectNameStrategy = SubjectNameStrategy.TOPIC_NAME;

		public String getCodec() {
			return this.codec;
		}

		public void setCodec(String codec) {
			this.codec = codec;
		}

		public Class<?> getType() {
			return this.type;
		}

		public void setType(Class<?> type) {
			this.type = type;
		}

		public String getSchema() {
			return this.schema;
		}

		public void setSchema(String schema) {
			this.schema = schema;
		}

		public SchemaIdFraming getSchemaId() {
			return this.schemaId;
		}

		public void setSchemaId(SchemaIdFraming schemaId) {
			this.schemaId = schemaId;
		}

		public SubjectNameStrategy getSubjectNameStrategy() {
			return this.subjectNameStrategy;
		}

		public void setSubjectNameStrategy(SubjectNameStrategy subjectNameStrategy) {
			this.subjectNameStrategy = subjectNameStrategy;
		}

	}


	/**
	 * A transactional consume-transform-produce worker.
	 */
	public static class Worker {

		/**
		 * Topics the worker consumes.
		 */
		private List<String> sourceTopics = new ArrayList<>();

		/**
		 * Topic the processor's output goes to.
		 */
		private String destination;

		/**
		 * Consumer group; defaults to the worker's name.
		 */
		private String groupId;

		/**
		 * Base of the slots' transactional ids, the same on every replica: slot i of an
		 * instance uses "<base>-<instance>-<i>" (lockstep.instance-id); defaults to the group id.
		 */
		private String transactionalId;

		/**
		 * Name of the processor bean (a ValueTransformer, RecordProcessor or their Async
		 * forms); defaults to the worker's name.
		 */
		private String processor;

		/**
		 * Input key encoding.
		 */
		private final Codec key = new Codec();

		/**
		 * Input value encoding.
		 */
		private final Codec value = new Codec();

		/**
		 * Output key encoding; defaults to the input key encoding.
		 */
		private Codec outputKey;

		/**
		 * Output value encoding; defaults to the input value encoding.
		 */
		private Codec outputValue;

		/**
		 * Most records one poll returns (max.poll.records).
		 */
		private int batchSize = 500;

		/**
		 * Longest a poll waits for records.
		 */
		private Duration pollTimeout = WorkerSettings.DEFAULT_POLL_TIMEOUT;

		/**
		 * Number of slots, each one consumer and one transactional producer.
		 */
		private int concurrency = WorkerSettings.DEFAULT_CONCURRENCY;

		/**
		 * Which records of a slot may be processed at the same time: partition (one at a
		 * time), key (one per key at a time) or none (any); key and none need a
		 * thread-safe processor.
		 */
		private WorkerSettings.Ordering ordering = WorkerSettings.Ordering.PARTITION;

		/**
		 * Most records a slot processes at once under key or none ordering (default 256);
		 * always 1 under partition.
		 */
		private Integer maxInFlight;

		private final Transaction transaction = new Transaction();

		private final InvalidInput invalidInput = new InvalidInput();

		private final Recovery recovery = new Recovery();

		private final Retry retry = new Retry();

		/**
		 * Stop once this many input records are committed (one-shot runs); 0 runs forever.
		 */
		private long stopAfterRecords = WorkerSettings.Bounds.NONE.stopAfterRecords();

		/**
		 * Fail when no input arrives for this long (one-shot runs); unset waits forever.
		 */
		private Duration idleTimeout;

		/**
		 * Longest a graceful stop waits for the open transaction and the clients to close.
		 */
		private Duration shutdownTimeout = WorkerSettings.DEFAULT_SHUTDOWN_TIMEOUT;

		/**
		 * Whether each slot is a static group member (group.instance.id = its transactional
		 * id); default: true under the classic group protocol with a stable instance id.
		 */
		private Boolean staticMembership;

		/**
		 * Whether a graceful stop leaves the group so its partitions move at once; false
		 * (static membership only) keeps them for the restart until the session times out.
		 */
		private boolean leaveGroupOnStop = true;

		/**
		 * Whether the worker starts with the application context.
		 */
		private boolean autoStartup = true;

		/**
		 * Extra consumer properties for this worker.
		 */
		private Map<String, String> consumer = new HashMap<>();

		/**
		 * Extra producer properties for this worker.
		 */
		private Map<String, String> producer = new HashMap<>();

		public List<String> getSourceTopics() {
			return this.sourceTopics;
		}

		public void setSourceTopics(List<String> sourceTopics) {
			this.sourceTopics = sourceTopics;
		}

		public String getDestination() {
			return this.destination;
		}

		public void setDestination(String destination) {
			this.destination = destination;
		}

		public String getGroupId() {
			return this.groupId;
		}

		public void setGroupId(String groupId) {
			this.groupId = groupId;
		}

		public String getTransactionalId() {
			return this.transactionalId;
		}

		public void setTransactionalId(String transactionalId) {
			this.transactionalId = transactionalId;
		}

		public String getProcessor() {
			return this.processor;
		}

		public void setProcessor(String processor) {
			this.processor = processor;
		}

		public Codec getKey() {
			return this.key;
		}

		public Codec getValue() {
			return this.value;
		}

		public Codec getOutputKey() {
			return this.outputKey;
		}

		public void setOutputKey(Codec outputKey) {
			this.outputKey = outputKey;
		}

		public Codec getOutputValue() {
			return this.outputValue;
		}

		public void setOutputValue(Codec outputValue) {
			this.outputValue = outputValue;
		}

		public int getBatchSize() {
			return this.batchSize;
		}

		public void setBatchSize(int batchSize) {
			this.batchSize = batchSize;
		}

		public Duration getPollTimeout() {
			return this.pollTimeout;
		}

		public void setPollTimeout(Duration pollTimeout) {
			this.pollTimeout = pollTimeout;
		}

		public int getConcurrency() {
			return this.concurrency;
		}

		public void setConcurrency(int concurrency) {
			this.concurrency = concurrency;
		}

		public WorkerSettings.Ordering getOrdering() {
			return this.ordering;
		}

		public void setOrdering(WorkerSettings.Ordering ordering) {
			this.ordering = ordering;
		}

		public Integer getMaxInFlight() {
			return this.maxInFlight;
		}

		public void setMaxInFlight(Integer maxInFlight) {
			this.maxInFlight = maxInFlight;
		}

		public Transaction getTransaction() {
			return this.transaction;
		}

		public InvalidInput getInvalidInput() {
			return this.invalidInput;
		}

		public Recovery getRecovery() {
			return this.recovery;
		}

		public Retry getRetry() {
			return this.retry;
		}

		public long getStopAfterRecords() {
			return this.stopAfterRecords;
		}

		public void setStopAfterRecords(long stopAfterRecords) {
			this.stopAfterRecords = stopAfterRecords;
		}

		public Duration getIdleTimeout() {
			return this.idleTimeout;
		}

		public void setIdleTimeout(Duration idleTimeout) {
			this.idleTimeout = idleTimeout;
		}

		public Duration getShutdownTimeout() {
			return this.shutdownTimeout;
		}

		public void setShutdownTimeout(Duration shutdownTimeout) {
			this.shutdownTimeout = shutdownTimeout;
		}

		public Boolean getStaticMembership() {
			return this.staticMembership;
		}

		public void setStaticMembership(Boolean staticMembership) {
			this.staticMembership = staticMembership;
		}

		public boolean isLeaveGroupOnStop() {
			return this.leaveGroupOnStop;
		}

		public void setLeaveGroupOnStop(boolean leaveGroupOnStop) {
			this.leaveGroupOnStop = leaveGroupOnStop;
		}

		public boolean isAutoStartup() {
			return this.autoStartup;
		}

		public void setAutoStartup(boolean autoStartup) {
			this.autoStartup = autoStartup;
		}

		public Map<String, String> getConsumer() {
			return this.consumer;
		}

		public void setConsumer(Map<String, String> consumer) {
			this.consumer = consumer;
		}

		public Map<String, String> getProducer() {
			return this.producer;
		}

		public void setProducer(Map<String, String> producer) {
			this.producer = producer;
		}

	}

	/**
	 * When a worker commits: a transaction may span several polls.
	 */
	public static class Transaction {

		/**
		 * Most input records in one transaction.
		 */
		private int maxRecords = WorkerSettings.TransactionSizing.DEFAULT.maxRecords();

		/**
		 * Longest a transaction stays open before it is committed.
		 */
		private Duration maxInterval = WorkerSettings.TransactionSizing.DEFAULT.maxInterval();

		/**
		 * Transaction timeout (transaction.timeout.ms): how long a crashed instance's open
		 * transaction can hold back read_committed readers.
		 */
		private Duration timeout = WorkerSettings.TransactionSizing.DEFAULT_TIMEOUT;

		public int getMaxRecords() {
			return this.maxRecords;
		}

		public void setMaxRecords(int maxRecords) {
			this.maxRecords = maxRecords;
		}

		public Duration getMaxInterval() {
			return this.maxInterval;
		}

		public void setMaxInterval(Duration maxInterval) {
			this.maxInterval = maxInterval;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

	}

	/**
	 * What a worker does with records that can never be processed.
	 */
	public static class InvalidInput {

		/**
		 * Block (commit nothing past the record, retry, report BLOCKED) or quarantine (write it
		 * to the quarantine topic in the same transaction).
		 */
		private WorkerSettings.InvalidInputPolicy.Mode policy = WorkerSettings.InvalidInputPolicy.BLOCK.mode();

		/**
		 * Topic quarantined records go to; required with the quarantine policy.
		 */
		private String quarantineTopic;

		private final Guard guard = new Guard();

		public WorkerSettings.InvalidInputPolicy.Mode getPolicy() {
			return this.policy;
		}

		public void setPolicy(WorkerSettings.InvalidInputPolicy.Mode policy) {
			this.policy = policy;
		}

		public String getQuarantineTopic() {
			return this.quarantineTopic;
		}

		public void setQuarantineTopic(String quarantineTopic) {
			this.quarantineTopic = quarantineTopic;
		}

		public Guard getGuard() {
			return this.guard;
		}

	}

	/**
	 * When the quarantine policy blocks instead: a worker pointed at the wrong registry or
	 * topic must not move a whole topic into quarantine.
	 */
	public static class Guard {

		/**
		 * How many of a slot's most recent records are counted.
		 */
		private int window = WorkerSettings.InvalidInputPolicy.QuarantineGuard.DEFAULT.window();

		/**
		 * Share of invalid records in the window above which quarantine blocks the slot.
		 */
		private double maxRatio = WorkerSettings.InvalidInputPolicy.QuarantineGuard.DEFAULT.maxRatio();

		public int getWindow() {
			return this.window;
		}

		public void setWindow(int window) {
			this.window = window;
		}

		public double getMaxRatio() {
			return this.maxRatio;
		}

		public void setMaxRatio(double maxRatio) {
			this.maxRatio = maxRatio;
		}

	}

	/**
	 * Backoff between a worker's recovery attempts, and when a worker counts as stalled.
	 */
	public static class Recovery {

		/**
		 * First backoff after a failure.
		 */
		private Duration initialBackoff = WorkerSettings.Recovery.DEFAULT.initialBackoff();

		/**
		 * Longest backoff; each consecutive failure doubles the wait up to it.
		 */
		private Duration maxBackoff = WorkerSettings.Recovery.DEFAULT.maxBackoff();

		/**
		 * Consecutive aborted transactions without a commit after which a slot is STALLED
		 * (health DOWN) until its next commit.
		 */
		private int stallAfter = WorkerSettings.Recovery.DEFAULT_STALL_AFTER;

		public Duration getInitialBackoff() {
			return this.initialBackoff;
		}

		public void setInitialBackoff(Duration initialBackoff) {
			this.initialBackoff = initialBackoff;
		}

		public Duration getMaxBackoff() {
			return this.maxBackoff;
		}

		public void setMaxBackoff(Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

		public int getStallAfter() {
			return this.stallAfter;
		}

		public void setStallAfter(int stallAfter) {
			this.stallAfter = stallAfter;
		}

	}

	/**
	 * A budget of attempts for each record whose processor fails, then quarantine or block.
	 */
	public static class Retry {

		/**
		 * How many times a record is processed at most; 1 (the default) retries nothing.
		 */
		private int attempts = WorkerSettings.Retry.NONE.attempts();

		/**
		 * Wait before a record's second attempt.
		 */
		private Duration initialBackoff = WorkerSettings.Retry.NONE.initialBackoff();

		/**
		 * How much each further wait grows.
		 */
		private double multiplier = WorkerSettings.Retry.NONE.multiplier();

		/**
		 * Longest wait between two attempts of a record.
		 */
		private Duration maxBackoff = WorkerSettings.Retry.NONE.maxBackoff();

		/**
		 * Share of each wait varied at random, either way (0 to 1).
		 */
		private double jitter = WorkerSettings.Retry.NONE.jitter();

		/**
		 * What becomes of a record whose attempts are spent: quarantine (to the invalid input's
		 * quarantine topic) or block.
		 */
		private WorkerSettings.InvalidInputPolicy.Mode exhausted = WorkerSettings.Retry.NONE.exhausted();

		/**
		 * Exception types retried, matched against the failure and its causes; empty: every
		 * failure of the processor that is not invalid input.
		 */
		private List<Class<?>> retryOn = new ArrayList<>();

		public int getAttempts() {
			return this.attempts;
		}

		public void setAttempts(int attempts) {
			this.attempts = attempts;
		}

		public Duration getInitialBackoff() {
			return this.initialBackoff;
		}

		public void setInitialBackoff(Duration initialBackoff) {
			this.initialBackoff = initialBackoff;
		}

		public double getMultiplier() {
			return this.multiplier;
		}

		public void setMultiplier(double multiplier) {
			this.multiplier = multiplier;
		}

		public Duration getMaxBackoff() {
			return this.maxBackoff;
		}

		public void setMaxBackoff(Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

		public double getJitter() {
			return this.jitter;
		}

		public void setJitter(double jitter) {
			this.jitter = jitter;
		}

		public WorkerSettings.InvalidInputPolicy.Mode getExhausted() {
			return this.exhausted;
		}

		public void setExhausted(WorkerSettings.InvalidInputPolicy.Mode exhausted) {
			this.exhausted = exhausted;
		}

		public List<Class<?>> getRetryOn() {
			return this.retryOn;
		}

		public void setRetryOn(List<Class<?>> retryOn) {
			this.retryOn = retryOn;
		}

	}

	/**
	 * A named transactional producer: a KafkaTemplate bean and its transaction manager.
	 */
	public static class Producer {

		/**
		 * Prefix of the producer's transactional ids, followed by the instance's id;
		 * defaults to the producer's name and "-".
		 */
		private String transactionIdPrefix;

		/**
		 * Key encoding.
		 */
		private final Codec key = new Codec();

		/**
		 * Value encoding.
		 */
		private final Codec value = new Codec();

		/**
		 * Extra producer properties.
		 */
		private Map<String, String> properties = new HashMap<>();

		public String getTransactionIdPrefix() {
			return this.transactionIdPrefix;
		}

		public void setTransactionIdPrefix(String transactionIdPrefix) {
			this.transactionIdPrefix = transactionIdPrefix;
		}

		public Codec getKey() {
			return this.key;
		}

		public Codec getValue() {
			return this.value;
		}

		public Map<String, String> getProperties() {
			return this.properties;
		}

		public void setProperties(Map<String, String> properties) {
			this.properties = properties;
		}

	}

	/**
	 * The transactional batch listener container factory for @KafkaListener methods.
	 */
	public static class Listener {

		/**
		 * Prefix of the listener containers' transactional ids, followed by the instance's id.
		 */
		private String transactionIdPrefix = "lockstep-listener-";

		public String getTransactionIdPrefix() {
			return this.transactionIdPrefix;
		}

		public void setTransactionIdPrefix(String transactionIdPrefix) {
			this.transactionIdPrefix = transactionIdPrefix;
		}

	}

	/**
	 * Transport security rules.
	 */
	public static class Security {

		/**
		 * Refuse to start when a broker or the registry would be reached without TLS on a
		 * non-loopback address.
		 */
		private boolean requireEncryption = false;

		public boolean isRequireEncryption() {
			return this.requireEncryption;
		}

		public void setRequireEncryption(boolean requireEncryption) {
			this.requireEncryption = requireEncryption;
		}

	}

	/**
	 * Observations (traces, and the meters of observation handlers).
	 */
	public static class Observations {

		/**
		 * Whether workers trace the records the tracer samples and observe each
		 * transaction; default: when Micrometer Tracing is configured.
		 */
		private Boolean enabled;

		/**
		 * Whether log lines about records that are not sampled carry a trace id and span
		 * id too (the tracer's non-recording span and its scope), at about the cost of a
		 * sampled record.
		 */
		private boolean correlateUnsampledLogs;

		/**
		 * What a new trace is started for when records arrive without trace headers: one
		 * per transaction of a slot (its sampled span shared by those records) or one per
		 * record.
		 */
		private NewTraces newTraces = NewTraces.PER_TRANSACTION;

		/**
		 * What a record in a sampled W3C trace gets: a span of its own (child of the
		 * producer's), or a link from its transaction's one span (outputs carry the input's
		 * trace headers as they are).
		 */
		private SampledParents sampledParents = SampledParents.SPAN;

		public Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(Boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isCorrelateUnsampledLogs() {
			return this.correlateUnsampledLogs;
		}

		public void setCorrelateUnsampledLogs(boolean correlateUnsampledLogs) {
			this.correlateUnsampledLogs = correlateUnsampledLogs;
		}

		public NewTraces getNewTraces() {
			return this.newTraces;
		}

		public void setNewTraces(NewTraces newTraces) {
			this.newTraces = newTraces;
		}

		public SampledParents getSampledParents() {
			return this.sampledParents;
		}

		public void setSampledParents(SampledParents sampledParents) {
			this.sampledParents = sampledParents;
		}

	}

	/**
	 * Development settings.
	 */
	public static class Dev {

		private final EmbeddedBroker embeddedBroker = new EmbeddedBroker();

		private final EmbeddedRegistry embeddedRegistry = new EmbeddedRegistry();

		public EmbeddedBroker getEmbeddedBroker() {
			return this.embeddedBroker;
		}

		public EmbeddedRegistry getEmbeddedRegistry() {
			return this.embeddedRegistry;
		}

	}

	/**
	 * A Confluent-API schema registry inside the JVM for development, used when no
	 * registry is configured.
	 */
	public static class EmbeddedRegistry {

		/**
		 * Whether to start the development registry when lockstep.registry.url is not set.
		 */
		private boolean enabled = false;

		/**
		 * Directory of the registry's schemas, kept between runs.
		 */
		private String dataDir = ".lockstep/registry";

		/**
		 * Whether to keep the schemas in memory only, forgotten when the registry stops.
		 */
		private boolean temporary = false;

		/**
		 * Compatibility level of subjects that have none of their own.
		 */
		private Compatibility compatibility = Compatibility.BACKWARD;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getDataDir() {
			return this.dataDir;
		}

		public void setDataDir(String dataDir) {
			this.dataDir = dataDir;
		}

		public boolean isTemporary() {
			return this.temporary;
		}

		public void setTemporary(boolean temporary) {
			this.temporary = temporary;
		}

		public Compatibility getCompatibility() {
			return this.compatibility;
		}

		public void setCompatibility(Compatibility compatibility) {
			this.compatibility = compatibility;
		}

	}

	/**
	 * A real single-node KRaft broker inside the JVM for development, used when no broker
	 * is configured.
	 */
	public static class EmbeddedBroker {

		/**
		 * Whether to start the development broker when spring.kafka.bootstrap-servers is not set.
		 */
		private boolean enabled = false;

		/**
		 * Directory of the broker's data, kept between runs.
		 */
		private String dataDir = ".lockstep/kafka";

		/**
		 * Whether to use a fresh temporary directory, deleted when the broker stops.
		 */
		private boolean temporary = false;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getDataDir() {
			return this.dataDir;
		}

		public void setDataDir(String dataDir) {
			this.dataDir = dataDir;
		}

		public boolean isTemporary() {
			return this.temporary;
		}

		public void setTemporary(boolean temporary) {
			this.temporary = temporary;
		}

	}

}
