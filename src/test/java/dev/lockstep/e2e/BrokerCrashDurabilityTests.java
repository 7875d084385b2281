package dev.lockstep.e2e;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.KafkaBrokerProcess;
import dev.lockstep.test.kafka.KafkaBrokerSpec;
import dev.lockstep.test.kafka.KafkaClusterProcesses;
import dev.lockstep.test.kafka.KafkaRelease;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The broker's side of exactly-once, without Lockstep: every transaction a producer was
 * told is committed is read, once, by a {@code read_committed} consumer after the broker
 * is SIGKILLed right after the commit and restarted, at the latest once the transactional
 * id has been initialised again. Each record's value is its sequence number; six rounds of
 * five transactions of 1,000 records, a new producer of the same transactional id each
 * round. The crash takes down the only node of a one-node cluster, or, in a three-node
 * cluster replicating the partition three times, every node (signalled together) or the
 * partition's leader alone. A round whose transactions are not all read within 30 s of the
 * restart is held back: a producer of the id is initialised (what a worker could do to
 * complete it), and then they must be, within 30 s more. Prints one
 * {@code E2E broker-crash-durability[<release>, <crash>]} line with the rounds held back.
 * Under {@code -Pmatrix} only: Kafka 4.4.0 fails it, holding rounds back even after the
 * initialisation, most often on one node (docs/compatibility.md, "Kafka 4.4 brokers after
 * a restart"), the reason the broker restart rows on Kafka 4.4 can repeat output, and no
 * build may turn red on it.
 */
@Tag("matrix")
class BrokerCrashDurabilityTests {

	private static final String TOPIC = "durability";

	private static final int ROUNDS = 6;

	private static final int TRANSACTIONS = 5;

	private static final int RECORDS = 1_000;

	@ParameterizedTest(name = "Kafka {0}, {1}")
	@CsvSource({ "3.9, ONE_NODE", "4.1, ONE_NODE", "4.4, ONE_NODE", "3.9, THREE_NODES_ALL_KILLED",
			"4.1, THREE_NODES_ALL_KILLED", "4.4, THREE_NODES_ALL_KILLED", "4.4, THREE_NODES_LEADER_KILLED" })
	@EnabledIfSystemProperty(named = CompatibilityMatrixTests.FULL, matches = "true",
			disabledReason = "under -Pmatrix only")
	void everyTransactionCommittedBeforeASigkillIsReadOnceAfterTheRestartAtTheLatestOnceItsIdIsInitialisedAgain(
			String release, Crash crash) throws Exception {
		KafkaBrokerSpec spec = KafkaBrokerSpec.defaults().withRelease(KafkaRelease.named(release));
		try (KafkaClusterProcesses cluster = KafkaClusterProcesses.start(crash.nodes, spec)) {
			try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
				admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) crash.nodes))).all().get();
			}
			long committed = 0;
			List<String> rounds = new ArrayList<>();
			List<String> deviations = new ArrayList<>();
			int heldBack = 0;
			try {
				for (int round = 1; round <= ROUNDS; round++) {
					List<KafkaBrokerProcess> crashed = commitThenCrash(cluster, committed, crash);
					committed += TRANSACTIONS * RECORDS;
					cluster.restart(crashed);
					String read = awaitExact(cluster, committed);
					String state = "killed " + crashed.stream().map(KafkaBrokerProcess::nodeId).toList() + ": " + read;
					if (!read.startsWith("exact")) {
						heldBack++;
						initialiseAgain(cluster);
						String released = awaitExact(cluster, committed);
						state += ", once initialised again " + released;
						if (!released.startsWith("exact")) {
							deviations.add("round " + round + ": " + state);
						}
					}
					rounds.add(state);
				}
			}
			finally {
				System.out.println("E2E broker-crash-durability[" + spec.describe() + ", " + crash + "]: rounds="
						+ rounds.size() + " heldBack=" + heldBack + " records=" + committed + " " + rounds);
			}
			// Each round goes on from what was committed, so a deviation shows once, in its round
			// and in every later one until it heals: the rounds say both.
			assertThat(deviations).as("rounds %s", rounds).isEmpty();
		}
	}

	/** Which nodes a crash takes down. */
	enum Crash {

		/** The only node of a one-node cluster. */
		ONE_NODE(1),

		/** Every node of a three-node cluster replicating the partition three times. */
		THREE_NODES_ALL_KILLED(3),

		/** The partition's leader, in a three-node cluster replicating it three times. */
		THREE_NODES_LEADER_KILLED(3);

		private final int nodes;

		Crash(int nodes) {
			this.nodes = nodes;
		}

		List<KafkaBrokerProcess> crashed(KafkaClusterProcesses cluster, Node leader) {
			return (this != THREE_NODES_LEADER_KILLED) ? cluster.nodes() : List.of(cluster.node(leader.id()));
		}

	}

	/**
	 * Read until every committed record is read once, for up to 30 s.
	 * @return {@code exact after 1.6s}, or what was read then
	 */
	private static String awaitExact(KafkaBroker broker, long committed) {
		long started = System.nanoTime();
		long deadline = started + Duration.ofSeconds(30).toNanos();
		String expected = describe(exact(committed), committed);
		String state;
		do {
			try {
				state = describe(readCommitted(broker), committed);
			}
			catch (TimeoutException ex) {
				state = "unanswered (" + ex.getMessage() + ")";
			}
			if (state.equals(expected)) {
				return String.format("exact after %.1fs", (System.nanoTime() - started) / 1e9);
			}
		}
		while (System.nanoTime() < deadline);
		return state + " after 30s";
	}

	/**
	 * Commit five transactions with a new producer, then SIGKILL the crash's nodes together.
	 * @return the nodes killed
	 */
	private static List<KafkaBrokerProcess> commitThenCrash(KafkaClusterProcesses cluster, long first, Crash crash) {
		long next = first;
		try (KafkaProducer<byte[], byte[]> producer = producer(cluster)) {
			producer.initTransactions();
			for (int transaction = 0; transaction < TRANSACTIONS; transaction++) {
				producer.beginTransaction();
				for (int i = 0; i < RECORDS; i++) {
					producer.send(new ProducerRecord<>(TOPIC, ByteBuffer.allocate(8).putLong(next++).array()));
				}
				producer.commitTransaction();
			}
			// The leader the producer's last writes went to, from its metadata: no request in between.
			Node leader = producer.partitionsFor(TOPIC).get(0).leader();
			assertThat(leader).as("the partition's leader").isNotNull();
			List<KafkaBrokerProcess> crashed = crash.crashed(cluster, leader);
			cluster.kill(crashed);
			producer.close(Duration.ZERO);
			return crashed;
		}
	}

	/**
	 * Initialise a producer of the transactional id: the coordinator is to complete any
	 * transaction of the id first (Kafka 4.4.0 leaves a held-back one unreadable).
	 */
	private static void initialiseAgain(KafkaBroker broker) {
		try (KafkaProducer<byte[], byte[]> producer = producer(broker)) {
			producer.initTransactions();
		}
	}

	private static KafkaProducer<byte[], byte[]> producer(KafkaBroker broker) {
		Map<String, Object> props = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
				ProducerConfig.TRANSACTIONAL_ID_CONFIG, "durability-tx", ProducerConfig.ACKS_CONFIG, "all",
				ProducerConfig.MAX_BLOCK_MS_CONFIG, 120_000);
		return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
	}

	/** How often each sequence number is read, up to the partition's end. */
	private static Map<Long, Integer> readCommitted(KafkaBroker broker) {
		Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
				ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
				5_000);
		TopicPartition partition = new TopicPartition(TOPIC, 0);
		Map<Long, Integer> read = new TreeMap<>();
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
				new ByteArrayDeserializer())) {
			consumer.assign(List.of(partition));
			consumer.seekToBeginning(List.of(partition));
			long end = consumer.endOffsets(List.of(partition)).get(partition);
			long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			while (consumer.position(partition) < end && System.nanoTime() < deadline) {
				for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
					read.merge(ByteBuffer.wrap(record.value()).getLong(), 1, Integer::sum);
				}
			}
		}
		return read;
	}

	private static Map<Long, Integer> exact(long count) {
		Map<Long, Integer> exact = new TreeMap<>();
		for (long sequence = 0; sequence < count; sequence++) {
			exact.put(sequence, 1);
		}
		return exact;
	}

	/** Which committed transactions are missing or read twice: {@code missing [4000-4999] twice []}. */
	private static String describe(Map<Long, Integer> read, long committed) {
		List<String> missing = new ArrayList<>();
		List<String> twice = new ArrayList<>();
		for (long transaction = 0; transaction * RECORDS < committed; transaction++) {
			long from = transaction * RECORDS;
			long to = from + RECORDS - 1;
			boolean absent = true;
			boolean repeated = false;
			for (long sequence = from; sequence <= to; sequence++) {
				Integer times = read.get(sequence);
				absent &= times == null;
				repeated |= times != null && times > 1;
			}
			if (absent) {
				missing.add(from + "-" + to);
			}
			if (repeated) {
				twice.add(from + "-" + to);
			}
		}
		return "missing " + missing + " twice " + twice + " read " + read.size() + " of " + committed;
	}

}
