package dev.lockstep.e2e;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTransactionsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's pipeline seen from outside: topics, the seeded orders (a tombstone every
 * 50th, statuses in mixed casings, a {@code seq} header), and the checks every
 * exactly-once scenario ends with.
 */
final class OrderPipeline {

	static final String INPUT = "cookbook-orders";

	static final String OUTPUT = "cookbook-normalized";

	static final String GROUP = "cookbook-normalizers";

	static final String QUARANTINE = "cookbook-quarantine";

	/** A value that is not an Order: a string length prefix larger than the bytes left. */
	static final byte[] MALFORMED = { 2, 8, 'P' };

	private final String bootstrapServers;

	private final int records;

	// The schema id framing input values (Confluent wire format), or -1 for raw Avro.
	private final long inputSchemaId;

	// Whether output values are framed (Confluent wire format) rather than raw Avro.
	private final boolean framedOutput;

	// Orders keyed by one of this many customers, or by their own id when 0.
	private int customers;

	// The workers' group.protocol: classic (Kafka's default) or consumer (KIP-848).
	private GroupType groupProtocol = GroupType.CLASSIC;

	// The Kafka client line of the sample jar the workers run.
	private KafkaClients clients = KafkaClients.KAFKA_41;

	// The workers' lockstep.instance-id: one instance restarted in place, as a StatefulSet
	// pod is, so that a restart or a twin has its predecessor's transactional ids; null
	// leaves the identity to the process's environment, as a Deployment's pods have it.
	private String instanceId = "0";

	OrderPipeline(String bootstrapServers, int records) {
		this(bootstrapServers, records, -1);
	}

	/** Input framed with the given schema id (or raw for -1), output framed as input is. */
	OrderPipeline(String bootstrapServers, int records, long inputSchemaId) {
		this(bootstrapServers, records, inputSchemaId, inputSchemaId >= 0);
	}

	OrderPipeline(String bootstrapServers, int records, long inputSchemaId, boolean framedOutput) {
		this.bootstrapServers = bootstrapServers;
		this.records = records;
		this.inputSchemaId = inputSchemaId;
		this.framedOutput = framedOutput;
	}

	/**
	 * Key the orders by customer, so that each key has several orders, instead of by id.
	 * @param customers how many customers; order {@code i} is customer {@code i % customers}'s
	 * @return this pipeline
	 */
	OrderPipeline keyedByCustomer(int customers) {
		this.customers = customers;
		return this;
	}

	/**
	 * Run the workers under another group protocol.
	 * @param protocol {@link GroupType#CLASSIC} or {@link GroupType#CONSUMER} (KIP-848)
	 * @return this pipeline
	 */
	OrderPipeline groupProtocol(GroupType protocol) {
		this.groupProtocol = protocol;
		return this;
	}

	GroupType groupProtocol() {
		return this.groupProtocol;
	}

	/**
	 * Run the workers from the sample jar built on another Kafka client line.
	 * @param clients the client line
	 * @return this pipeline
	 */
	OrderPipeline clients(KafkaClients clients) {
		this.clients = clients;
		return this;
	}

	/**
	 * Start workers with no instance id, each resolving its own from its environment, as
	 * the replicas of a Deployment do.
	 * @return this pipeline
	 */
	OrderPipeline identityFromEnvironment() {
		this.instanceId = null;
		return this;
	}

	/**
	 * Start the sample worker as its own process against this pipeline's cluster; an
	 * extra argument replaces the default of the same option.
	 */
	SampleAppProcess startWorker(Path workDir, String... extraArgs) {
		return startWorker(workDir, Map.of(), extraArgs);
	}

	/**
	 * Start the sample worker as {@link #startWorker(Path, String...)} does, with
	 * environment variables beside this JVM's (a pod's {@code HOSTNAME}).
	 */
	SampleAppProcess startWorker(Path workDir, Map<String, String> environment, String... extraArgs) {
		List<String> args = new ArrayList<>(List.of(extraArgs));
		List<String> defaults = new ArrayList<>(List.of("--spring.kafka.bootstrap-servers=" + this.bootstrapServers,
				"--lockstep.workers.normalizer.concurrency=2", "--logging.level.root=WARN",
				"--spring.main.web-application-type=none"));
		if (this.instanceId != null) {
			defaults.add("--lockstep.instance-id=" + this.instanceId);
		}
		if (this.groupProtocol == GroupType.CONSUMER) {
			// The session and heartbeat are the broker's (group.consumer.*) under this protocol.
			defaults.add("--lockstep.workers.normalizer.consumer.group.protocol=consumer");
		}
		else {
			// A killed member leaves the group after its session times out: keep that short.
			defaults.addAll(List.of("--lockstep.workers.normalizer.consumer.session.timeout.ms=6000",
					"--lockstep.workers.normalizer.consumer.heartbeat.interval.ms=1000"));
		}
		defaults.forEach((defaultArg) -> {
			// A repeated option would be joined with a comma, not overridden.
			String option = defaultArg.substring(0, defaultArg.indexOf('=') + 1);
			if (args.stream().noneMatch((arg) -> arg.startsWith(option))) {
				args.add(defaultArg);
			}
		});
		return SampleAppProcess.start(this.clients, workDir, environment, args.toArray(String[]::new));
	}

	void createTopics(int partitions, short replicas) throws Exception {
		try (Admin admin = admin()) {
			admin.createTopics(List.of(new NewTopic(INPUT, Optional.of(partitions), Optional.of(replicas)),
					new NewTopic(OUTPUT, Optional.of(partitions), Optional.of(replicas))))
				.all()
				.get();
		}
	}

	/** Create the quarantine topic, one partition. */
	void createQuarantineTopic() throws Exception {
		try (Admin admin = admin()) {
			admin.createTopics(List.of(new NewTopic(QUARANTINE, Optional.of(1), Optional.empty()))).all().get();
		}
	}

	void seed() throws Exception {
		seed(1, this.records);
	}

	/** The number of orders the pipeline's input holds once seeded. */
	int records() {
		return this.records;
	}

	/** Seed orders {@code from..to} (inclusive), in increasing id order. */
	void seed(long from, long to) throws Exception {
		seed(from, to, Set.of());
	}

	/** Seed orders {@code from..to}, with malformed bytes as the value of the given ids. */
	void seed(long from, long to, Set<Long> malformed) throws Exception {
		AtomicReference<Exception> failure = new AtomicReference<>();
		try (KafkaProducer<byte[], byte[]> producer = producer()) {
			for (long id = from; id <= to; id++) {
				producer.send(order(id, malformed.contains(id)), (metadata, ex) -> {
					if (ex != null) {
						failure.compareAndSet(null, ex);
					}
				});
			}
			producer.flush();
		}
		// A lost input record would later read as a record the worker lost.
		if (failure.get() != null) {
			throw new IllegalStateException("Seeding orders " + from + ".." + to + " failed", failure.get());
		}
	}

	/** A producer of input orders, for tests that feed input at their own pace. */
	KafkaProducer<byte[], byte[]> producer() {
		Properties props = new Properties();
		props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers);
		props.put(ProducerConfig.LINGER_MS_CONFIG, 10);
		// One request in flight per broker: on a cluster whose brokers are still applying a
		// new topic, a first request refused NOT_LEADER_OR_FOLLOWER can be overtaken by the
		// next, and the broker then refuses the first's retries as out of sequence until it
		// expires (KAFKA-15591, fixed in Kafka 4.5 brokers): input lost before any fault.
		props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
		return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
	}

	/** The input record of one order, keyed by id, with its {@code seq} header. */
	ProducerRecord<byte[], byte[]> order(long id, boolean malformed) {
		RecordHeaders headers = new RecordHeaders();
		headers.add("seq", Long.toString(id).getBytes(StandardCharsets.UTF_8));
		byte[] value = malformed ? MALFORMED : Orders.isTombstone(id) ? null : frame(Orders.encode(id));
		return new ProducerRecord<>(INPUT, null, key(id), value, headers);
	}

	private byte[] key(long id) {
		return (this.customers > 0) ? ("customer-" + (id % this.customers)).getBytes(StandardCharsets.UTF_8)
				: Orders.key(id);
	}

	/** Output log end offsets, summed: records plus markers, committed or not; a kill trigger only. */
	long outputEndOffsets() {
		try (KafkaConsumer<byte[], byte[]> consumer = consumer("read_uncommitted")) {
			return consumer.endOffsets(partitions(consumer, OUTPUT)).values().stream().mapToLong(Long::longValue).sum();
		}
	}

	/** The number of consumers in the worker's group. */
	int groupMembers() throws Exception {
		try (Admin admin = admin()) {
			return admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP).members().size();
		}
	}

	/** The type of the worker's group, as the broker reports it: which protocol its members speak. */
	GroupType groupType() throws Exception {
		try (Admin admin = admin()) {
			return admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP).type();
		}
	}

	/** The id of the node coordinating the worker's group. */
	int groupCoordinator() throws Exception {
		try (Admin admin = admin()) {
			return admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP).coordinator().id();
		}
	}

	/** The worker group's committed offsets: empty when it never committed. */
	Map<TopicPartition, OffsetAndMetadata> groupOffsets() throws Exception {
		try (Admin admin = admin()) {
			return admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get();
		}
	}

	/**
	 * The state of each of the given transactional ids' transactions, as their coordinator
	 * reports it; an id the coordinator does not know is left out.
	 */
	Map<String, TransactionDescription> transactions(List<String> transactionalIds) throws Exception {
		try (Admin admin = admin()) {
			DescribeTransactionsResult result = admin.describeTransactions(transactionalIds);
			Map<String, TransactionDescription> described = new HashMap<>();
			for (String id : transactionalIds) {
				try {
					described.put(id, result.description(id).get());
				}
				catch (ExecutionException ex) {
					if (!(ex.getCause() instanceof TransactionalIdNotFoundException)) {
						throw ex;
					}
				}
			}
			return described;
		}
	}

	/**
	 * Every record of a topic a read_committed reader sees, from the beginning to the
	 * end of its log: a transaction still open there (its markers not yet written, or a
	 * crashed producer's, until it times out) is waited for, not read as missing output.
	 */
	List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic) {
		Map<TopicPartition, Long> ends;
		try (KafkaConsumer<byte[], byte[]> uncommitted = consumer("read_uncommitted")) {
			ends = uncommitted.endOffsets(partitions(uncommitted, topic));
		}
		try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
			List<TopicPartition> partitions = partitions(consumer, topic);
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
			try {
				SampleAppProcess.awaitUntil("reading " + topic + " to its end offsets " + ends
						+ " (a transaction still open stops a read_committed reader short)", Duration.ofMinutes(3),
						() -> {
							consumer.poll(Duration.ofMillis(500)).forEach(records::add);
							return partitions.stream()
								.allMatch((partition) -> consumer.position(partition) >= ends.get(partition));
						}, List.of());
			}
			catch (AssertionError ex) {
				Map<Integer, Long> positions = new TreeMap<>();
				partitions.forEach((partition) -> positions.put(partition.partition(), consumer.position(partition)));
				throw new AssertionError(ex.getMessage() + "\nreader positions " + positions
						+ ", end offsets (uncommitted/committed) now " + endOffsets(topic), ex);
			}
			return records;
		}
	}

	long groupLag() throws Exception {
		try (Admin admin = admin(); KafkaConsumer<byte[], byte[]> consumer = consumer()) {
			Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(GROUP)
				.partitionsToOffsetAndMetadata()
				.get();
			long lag = 0;
			for (Map.Entry<TopicPartition, Long> end : consumer.endOffsets(partitions(consumer, INPUT)).entrySet()) {
				OffsetAndMetadata offset = committed.get(end.getKey());
				lag += end.getValue() - ((offset != null) ? offset.offset() : 0);
			}
			return lag;
		}
	}

	/** Verify the output holds every seeded order except the excluded ids, exactly once. */
	private Result verify(Set<Long> excluded) {
		Map<Long, Integer> seen = new HashMap<>();
		Result result = new Result();
		Map<Integer, Long> lastIdByPartition = new HashMap<>();
		Map<Integer, Long> lastOffsetByPartition = new HashMap<>();
		Map<String, Long> lastIdByKey = new HashMap<>();
		for (ConsumerRecord<byte[], byte[]> record : readCommitted(OUTPUT)) {
			Header seq = record.headers().lastHeader("seq");
			assertThat(seq).as("seq header at %s-%d@%d", record.topic(), record.partition(), record.offset())
				.isNotNull();
			long id = Long.parseLong(new String(seq.value(), StandardCharsets.UTF_8));
			String key = new String(record.key(), StandardCharsets.UTF_8);
			assertThat(key).as("key of order %d", id).isEqualTo(new String(key(id), StandardCharsets.UTF_8));
			if (Orders.isTombstone(id)) {
				assertThat(record.value()).as("tombstone %d", id).isNull();
			}
			else {
				GenericRecord order = Orders.decode(unframe(record.value()));
				assertThat(order.get("id")).isEqualTo(id);
				assertThat(order.get("status").toString()).isEqualTo(Orders.normalized(id));
			}
			// Ids were seeded in increasing order, and a key stays on its partition.
			Long previous = lastIdByPartition.put(record.partition(), id);
			Long previousOffset = lastOffsetByPartition.put(record.partition(), record.offset());
			assertThat(previous == null || previous < id)
				.as("order of partition %d at %d (offset %d; the previous record order %s at offset %s; %s)",
						record.partition(), id, record.offset(), previous, previousOffset,
						seen.containsKey(id) ? "a duplicate" : "not seen before")
				.isTrue();
			Long previousOfKey = lastIdByKey.put(key, id);
			assertThat(previousOfKey == null || previousOfKey < id).as("order of key %s at %d", key, id).isTrue();
			assertThat(excluded).as("excluded order %d in the output", id).doesNotContain(id);
			seen.merge(id, 1, Integer::sum);
			result.out++;
		}
		result.duplicates = seen.values().stream().filter((count) -> count > 1).mapToLong((count) -> count - 1).sum();
		result.in = inputRecords();
		result.missing = this.records - excluded.size() - seen.size();
		if (result.missing > 0) {
			result.diagnosis = missingRanges(seen.keySet(), excluded) + "; output end offsets (uncommitted/committed) "
					+ endOffsets(OUTPUT) + "; input end offsets " + endOffsets(INPUT) + "; group offsets "
					+ groupOffsetsOrFailure();
		}
		return result;
	}

	/** The missing ids as ranges, the first few of them, for a failure to explain itself. */
	private String missingRanges(Set<Long> seen, Set<Long> excluded) {
		List<String> ranges = new ArrayList<>();
		long start = -1;
		for (long id = 1; id <= this.records + 1; id++) {
			boolean missing = id <= this.records && !seen.contains(id) && !excluded.contains(id);
			if (missing && start < 0) {
				start = id;
			}
			else if (!missing && start >= 0) {
				ranges.add((start == id - 1) ? Long.toString(start) : start + "-" + (id - 1));
				start = -1;
			}
		}
		return "missing ids " + ((ranges.size() > 20) ? ranges.subList(0, 20) + " and " + (ranges.size() - 20) + " more"
				: ranges);
	}

	/** The number of input records: the input topic is written without transactions. */
	private long inputRecords() {
		try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
			return consumer.endOffsets(partitions(consumer, INPUT)).values().stream().mapToLong(Long::longValue).sum();
		}
	}

	private String groupOffsetsOrFailure() {
		try {
			Map<Integer, Long> offsets = new TreeMap<>();
			groupOffsets().forEach((partition, offset) -> offsets.put(partition.partition(), offset.offset()));
			return offsets.toString();
		}
		catch (Exception ex) {
			return "unknown (" + ex + ")";
		}
	}

	/** Each partition's end offset read_uncommitted and read_committed (the last stable offset). */
	private Map<Integer, String> endOffsets(String topic) {
		Map<Integer, String> ends = new TreeMap<>();
		try (KafkaConsumer<byte[], byte[]> uncommitted = consumer("read_uncommitted");
				KafkaConsumer<byte[], byte[]> committed = consumer()) {
			List<TopicPartition> partitions = partitions(uncommitted, topic);
			Map<TopicPartition, Long> stable = committed.endOffsets(partitions);
			uncommitted.endOffsets(partitions)
				.forEach((partition, end) -> ends.put(partition.partition(), end + "/" + stable.get(partition)));
		}
		return ends;
	}

	/**
	 * End a scenario: verify the output, print the scenario's figures as one {@code E2E}
	 * line, and assert that the output holds every seeded order exactly once.
	 */
	Result assertExactOutput(String scenario, int kills, int restarts, long startedNanos) {
		return assertExactOutput(scenario, Set.of(), kills, restarts, startedNanos);
	}

	/**
	 * End a scenario as {@link #assertExactOutput(String, int, int, long)} does, the
	 * excluded orders left out of the output.
	 */
	Result assertExactOutput(String scenario, Set<Long> excluded, int kills, int restarts, long startedNanos) {
		Result result = verify(excluded);
		System.out.println(result.line(scenario, kills, restarts, startedNanos));
		result.assertExact(this.records, this.records - excluded.size());
		return result;
	}

	private byte[] frame(byte[] datum) {
		if (this.inputSchemaId < 0) {
			return datum;
		}
		return ByteBuffer.allocate(5 + datum.length).put((byte) 0).putInt((int) this.inputSchemaId).put(datum).array();
	}

	private byte[] unframe(byte[] value) {
		// Framed output's schema id may differ from the input's; its datum may not.
		return this.framedOutput ? Arrays.copyOfRange(value, 5, value.length) : value;
	}

	private static List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer, String topic) {
		return consumer.partitionsFor(topic).stream().map((info) -> new TopicPartition(topic, info.partition())).toList();
	}

	private KafkaConsumer<byte[], byte[]> consumer() {
		return consumer("read_committed");
	}

	// Under read_committed, end offsets stop at the first open transaction.
	private KafkaConsumer<byte[], byte[]> consumer(String isolationLevel) {
		Properties props = new Properties();
		props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers);
		props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel);
		props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
		return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
	}

	private Admin admin() {
		return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers));
	}

	/**
	 * What a scenario's output held.
	 */
	static final class Result {

		// Measured: the input topic's record count.
		long in;

		long out;

		long duplicates;

		long missing;

		// What was missing and where the output's stable offsets stood, when something was.
		String diagnosis = "";

		String line(String scenario, int kills, int restarts, long startedNanos) {
			return String.format("E2E %s: in=%d out=%d duplicates=%d missing=%d kills=%d restarts=%d wall=%.1fs",
					scenario, this.in, this.out, this.duplicates, this.missing, kills, restarts,
					(System.nanoTime() - startedNanos) / 1e9);
		}

		void assertExact(int seeded, int records) {
			assertThat(this.in).as("input records (fewer: lost while seeding, before the worker)").isEqualTo(seeded);
			assertThat(this.duplicates).as("duplicates").isZero();
			assertThat(this.missing).as("missing: %s", this.diagnosis).isZero();
			assertThat(this.out).isEqualTo(records);
		}

	}

}
