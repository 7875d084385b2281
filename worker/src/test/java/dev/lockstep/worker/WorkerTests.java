package dev.lockstep.worker;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.avro.RawAvroCodec;
import dev.lockstep.registry.kafka.RawAvroDeserializer;
import dev.lockstep.registry.kafka.RawAvroSerializer;
import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.worker.WorkerSettings.Recovery;
import dev.lockstep.worker.WorkerSettings.Bounds;
import dev.lockstep.worker.WorkerSettings.Codecs;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.Membership;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import dev.lockstep.worker.test.Order;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.server.common.MetadataVersion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The worker runtime against a real KRaft broker in the test JVM.
 */
@ExtendWith(SharedKafkaBroker.class)
class WorkerTests {

	private static KafkaBroker broker;

	static KafkaFixture kafka;

	private static final RawAvroCodec<Order> ORDERS = new RawAvroCodec<>(Order.class);

	/** What Lockstep's codecs throw for data that can never be decoded or encoded. */
	static final List<Class<? extends Throwable>> INVALID_DATA = List.of(InvalidDataException.class);

	final String input = "orders-" + UUID.randomUUID();

	final String output = "normalized-" + UUID.randomUUID();

	private final String quarantine = "quarantine-" + UUID.randomUUID();

	final String group = "group-" + UUID.randomUUID();

	private final List<Worker> workers = new ArrayList<>();

	@BeforeAll
	static void connect(KafkaBroker shared) {
		broker = shared;
		kafka = new KafkaFixture(broker);
	}

	@AfterEach
	void stopWorkers() {
		this.workers.forEach(Worker::stop);
	}

	/**
	 * The consumer settings of the group protocol these tests run under: none for the
	 * classic protocol, the broker's default.
	 * @return the settings
	 */
	Map<String, Object> groupProtocol() {
		return Map.of();
	}

	/**
	 * The slots' group membership in these tests: the default for the group protocol.
	 * @return the membership, or {@code null} for the default
	 */
	Membership membership() {
		return null;
	}

	/**
	 * The type the worker's group has under {@link #groupProtocol()}.
	 * @return the group type
	 */
	GroupType groupType() {
		return GroupType.CLASSIC;
	}

	@Test
	void startedWorkerShowsTheFeaturesItsClusterFinalized() {
		kafka.createTopics(1, this.input, this.output);
		Worker worker = start(settings(1, Bounds.NONE, Mode.BLOCK, new TransactionSizing(500, Duration.ofMillis(100))));
		ClusterFeatures cluster = worker.state().cluster();
		assertThat(cluster.isRead()).as(cluster.toString()).isTrue();
		// Read again by test-support's own client, and named by Kafka's own list.
		assertThat(cluster.finalized())
			.isEqualTo(dev.lockstep.test.kafka.FinalizedFeatures.of(broker.bootstrapServers()).levels());
		assertThat(cluster.metadataVersion()).isEqualTo(
				MetadataVersion.fromFeatureLevel(cluster.level(ClusterFeatures.METADATA_VERSION)).version());
		if (groupType() == GroupType.CONSUMER) {
			assertThat(cluster.level(ClusterFeatures.GROUP_VERSION)).isGreaterThanOrEqualTo((short) 1);
		}
	}

	@Test
	void anOperatorMovesARunningWorkersInputBackToATimeAndOnToTheEnd() {
		kafka.createTopics(1, this.input, this.output);
		Instant now = Instant.now();
		kafka.produce(timed(1, 10, now.minus(Duration.ofHours(2))));
		kafka.produce(timed(11, 20, now.minus(Duration.ofHours(1))));
		Worker worker = start(settings(1, Bounds.NONE, Mode.BLOCK, new TransactionSizing(500, Duration.ofMillis(100))));
		assertThat(kafka.readCommitted(this.output, 20)).hasSize(20);

		// Back to 90 minutes ago: the ten orders since then again, nothing older.
		worker.resetOffsets(OffsetReset.toTimestamp(now.minus(Duration.ofMinutes(90))).requestedBy("test"));
		List<ConsumerRecord<byte[], byte[]>> again = kafka.readCommitted(this.output, 30);
		assertThat(again.subList(20, 30)).extracting((record) -> key(record))
			.containsExactlyElementsOf(keys(11, 20));

		// Paused, orders 21..25 arrive; moved to the end, they are never processed, 26..27 are.
		worker.pause();
		await().atMost(Duration.ofSeconds(30)).until(() -> worker.state().status() == WorkerStatus.PAUSED);
		kafka.produce(timed(21, 25, now));
		TopicPartition partition = new TopicPartition(this.input, 0);
		long end = kafka.endOffsets(this.input).get(0);
		worker.resetOffsets(OffsetReset.toEnd().requestedBy("test"));
		// Applied by the paused slot: the group's committed offset moved to the end.
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(kafka.committedOffsets(this.group).get(partition)).isEqualTo(end));
		worker.resume();
		kafka.produce(timed(26, 27, now));
		List<ConsumerRecord<byte[], byte[]>> all = kafka.readCommitted(this.output, 32);
		assertThat(all).hasSize(32);
		assertThat(all.subList(30, 32)).extracting((record) -> key(record)).containsExactlyElementsOf(keys(26, 27));
		// Committed: the group's offset is past every input, 21..25 included.
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(kafka.committedOffsets(this.group).get(partition))
				.isEqualTo(kafka.endOffsets(this.input).get(0)));
	}

	private List<ProducerRecord<byte[], byte[]>> timed(int first, int last, Instant timestamp) {
		List<ProducerRecord<byte[], byte[]>> orders = new ArrayList<>();
		for (int i = first; i <= last; i++) {
			orders.add(new ProducerRecord<>(this.input, null, timestamp.toEpochMilli(), bytes("order-" + i),
					ORDERS.encode(new Order((long) i, "paid", (long) i))));
		}
		return orders;
	}

	private static List<String> keys(int first, int last) {
		List<String> keys = new ArrayList<>();
		for (int i = first; i <= last; i++) {
			keys.add("order-" + i);
		}
		return keys;
	}

	/** The seed's normalization: validate, upper-case the status. */
	static Order normalize(Order order) {
		String status = order.getStatus().toUpperCase(Locale.ROOT);
		if (order.getId() <= 0 || order.getAmountCents() < 0 || !Set.of("PAID", "REFUNDED").contains(status)) {
			throw new InvalidRecordException("invalid order " + order.getId() + " with status " + order.getStatus());
		}
		return new Order(order.getId(), status, order.getAmountCents());
	}

	@Test
	void normalizesTheSeedOrdersKeepingKeysHeadersAndTombstones() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(List.of(order("order-1", 1, "paid", 12500), order("order-2", 2, "Refunded", 7800),
				tombstone("order-3")));
		Worker worker = start(settings(1, Bounds.NONE, Mode.BLOCK, new TransactionSizing(500, Duration.ofMillis(100))));

		List<ConsumerRecord<byte[], byte[]>> out = kafka.readCommitted(this.output, 3);
		assertThat(out).extracting((record) -> key(record)).containsExactly("order-1", "order-2", "order-3");
		assertThat(ORDERS.decode(out.get(0).value())).isEqualTo(new Order(1L, "PAID", 12500L));
		assertThat(ORDERS.decode(out.get(1).value())).isEqualTo(new Order(2L, "REFUNDED", 7800L));
		assertThat(out.get(2).value()).isNull();
		assertThat(header(out.get(0), "trace")).isEqualTo("trace-order-1");
		assertThat(header(out.get(2), "trace")).isEqualTo("trace-order-3");
		await().until(() -> worker.state().committedRecords() == 3);
		assertThat(kafka.committedOffsets(this.group)).containsEntry(new TopicPartition(this.input, 0), 3L);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
	}

	@Test
	void invalidRecordUnderBlockCommitsNothingPastItAndReportsBlocked() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(List.of(order("order-1", 1, "paid", 1), order("order-2", 2, "SHIPPED", 2),
				order("order-3", 3, "paid", 3)));
		Worker worker = start(settings(1, Bounds.NONE, Mode.BLOCK, new TransactionSizing(500, Duration.ofMillis(100))));

		await().until(() -> worker.state().status() == WorkerStatus.BLOCKED);
		SlotState.BlockedRecord blocked = worker.state().slots().get(0).blockedAt();
		assertThat(blocked.topic()).isEqualTo(this.input);
		assertThat(blocked.partition()).isZero();
		assertThat(blocked.offset()).isEqualTo(1L);
		assertThat(blocked.reason()).contains("SHIPPED");
		assertThat(kafka.readCommitted(this.output, 1)).hasSize(1);
		assertThat(kafka.committedOffsets(this.group)).containsEntry(new TopicPartition(this.input, 0), 1L);
		// It keeps retrying the same record and stays blocked.
		await().until(() -> worker.state().slots().get(0).recentErrors().size() >= 3);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.BLOCKED);
		assertThat(kafka.committedOffsets(this.group)).containsEntry(new TopicPartition(this.input, 0), 1L);
	}

	@Test
	void malformedBytesUnderBlockAreInvalidInput() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(List.of(order("order-1", 1, "paid", 1),
				new ProducerRecord<>(this.input, bytes("bad"), new byte[] { 2, 8, 'P' })));
		Worker worker = start(settings(1, Bounds.NONE, Mode.BLOCK, new TransactionSizing(500, Duration.ofMillis(100))));
		await().until(() -> worker.state().status() == WorkerStatus.BLOCKED);
		assertThat(worker.state().slots().get(0).blockedAt().offset()).isEqualTo(1L);
		assertThat(worker.state().slots().get(0).blockedAt().reason()).contains("exceeds the 1 bytes left");
	}

	@Test
	void invalidRecordUnderQuarantineGoesToTheQuarantineTopicInTheSameTransaction() {
		kafka.createTopics(1, this.input, this.output, this.quarantine);
		kafka.produce(List.of(order("order-1", 1, "paid", 1), order("order-2", 2, "SHIPPED", 2),
				order("order-3", 3, "refunded", 3)));
		Worker worker = start(
				settings(1, Bounds.NONE, Mode.QUARANTINE, new TransactionSizing(500, Duration.ofMillis(100))));

		assertThat(kafka.readCommitted(this.output, 2)).extracting(WorkerTests::key).containsExactly("order-1", "order-3");
		List<ConsumerRecord<byte[], byte[]>> quarantined = kafka.readCommitted(this.quarantine, 1);
		assertThat(quarantined).singleElement().satisfies((record) -> {
			assertThat(key(record)).isEqualTo("order-2");
			assertThat(ORDERS.decode(record.value()).getStatus()).isEqualTo("SHIPPED");
			assertThat(header(record, "trace")).isEqualTo("trace-order-2");
			assertThat(header(record, "lockstep.error.topic")).isEqualTo(this.input);
			assertThat(header(record, "lockstep.error.offset")).isEqualTo("1");
			assertThat(header(record, "lockstep.error.exception")).isEqualTo(InvalidRecordException.class.getName());
			assertThat(header(record, "lockstep.error.message")).contains("SHIPPED");
		});
		await().until(() -> worker.state().committedRecords() == 3);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
	}

	@Test
	void processorFailureAbortsAndReplaysWithoutDuplicates() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(paidOrders(20));
		AtomicInteger calls = new AtomicInteger();
		RecordProcessor<String, Order> flaky = RecordProcessor.of((Order order) -> {
			// Fails on the 15th call and, replaying, the 20th: each mid-transaction, after
			// sends were made (a transaction begins with its first record's output).
			int call = calls.incrementAndGet();
			if (call == 15 || call == 20) {
				throw new IllegalStateException("transient failure " + call);
			}
			return normalize(order);
		});
		CountingListener listener = new CountingListener();
		Worker worker = new Worker(settings(1, Bounds.NONE, Mode.BLOCK, new TransactionSizing(500, Duration.ofSeconds(5), Duration.ofMinutes(1))),
				flaky, RecoveryPolicy.AS_CLASSIFIED, listener);
		this.workers.add(worker);
		worker.start();

		await().until(() -> worker.state().committedRecords() == 20);
		List<ConsumerRecord<byte[], byte[]>> out = kafka.readCommitted(this.output, 20);
		assertThat(out).extracting(WorkerTests::key).doesNotHaveDuplicates().hasSize(20);
		assertThat(worker.state().slots().get(0).recentErrors()).anyMatch((error) -> error.contains("ABORT"));
		assertThat(calls.get()).isGreaterThan(20);
		// The listener (metrics) hears what was committed, not what was attempted.
		assertThat(listener.aborted).hasValue(2);
		assertThat(listener.processed).hasValue(20);
		assertThat(listener.outputs).hasValue(20);
		assertThat(listener.recoveries(FailureCategory.ABORTABLE)).isEqualTo(2);
	}

	@Test
	void replacedProducerContinuesWithExactOutput() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(paidOrders(20));
		AtomicInteger calls = new AtomicInteger();
		RecordProcessor<String, Order> failingOnce = RecordProcessor.of((Order order) -> {
			if (calls.incrementAndGet() == 10) {
				throw new UnsupportedOperationException("fatal for the producer");
			}
			return normalize(order);
		});
		// Treat the processor's failure as fatal: the slot must close its producer, rewind and
		// continue with a new one under the same transactional id.
		RecoveryPolicy replacing = (failure, classified) -> (failure instanceof UnsupportedOperationException)
				? FailureCategory.FATAL : classified;
		Worker worker = new Worker(settings(1, Bounds.NONE, Mode.BLOCK, new TransactionSizing(500, Duration.ofSeconds(5), Duration.ofMinutes(1))),
				failingOnce, replacing);
		this.workers.add(worker);
		worker.start();
		await().until(() -> worker.state().committedRecords() == 20);
		assertThat(kafka.readCommitted(this.output, 20)).extracting(WorkerTests::key).doesNotHaveDuplicates()
			.hasSize(20);
		assertThat(worker.state().slots().get(0).recentErrors()).anyMatch((error) -> error.contains("FATAL"));
	}

	@Test
	void transactionSpansSeveralPollsUpToItsMaxRecords() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(paidOrders(30));
		Map<String, Object> onePerPoll = Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
		Worker worker = start(settings(1, Bounds.NONE, Mode.BLOCK, new TransactionSizing(10, Duration.ofSeconds(30), Duration.ofMinutes(1)),
				onePerPoll), RecordProcessor.of(WorkerTests::normalize));

		await().until(() -> worker.state().committedRecords() == 30);
		assertThat(kafka.readCommitted(this.output, 30)).hasSize(30);
		// 30 records in 3 transactions of 10 polls each: 30 records + 3 commit markers.
		assertThat(kafka.endOffsets(this.output)).containsEntry(0, 33L);
	}

	@Test
	void oneShotRunStopsAfterItsRecordsAndFailsOnAnIdleDeadline() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(List.of(order("order-1", 1, "paid", 1), order("order-2", 2, "paid", 2),
				order("order-3", 3, "paid", 3), order("order-4", 4, "paid", 4)));
		Worker worker = start(settings(1, new Bounds(3, Duration.ofSeconds(30)), Mode.BLOCK,
				new TransactionSizing(500, Duration.ofMillis(100))));
		assertThat(worker.awaitTermination(Duration.ofSeconds(60))).isTrue();
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.STOPPED);
		assertThat(worker.state().committedRecords()).isEqualTo(3);
		assertThat(kafka.committedOffsets(this.group)).containsEntry(new TopicPartition(this.input, 0), 3L);

		// Exactly as many records left as the bound: it stops without waiting for more.
		Worker exact = start(settings(1, new Bounds(1, Duration.ofSeconds(30)), Mode.BLOCK,
				new TransactionSizing(500, Duration.ofMillis(100))));
		assertThat(exact.awaitTermination(Duration.ofSeconds(20))).isTrue();
		assertThat(exact.state().status()).isEqualTo(WorkerStatus.STOPPED);
		assertThat(exact.state().committedRecords()).isEqualTo(1);

		Worker idle = start(settings(1, new Bounds(3, Duration.ofSeconds(2)), Mode.BLOCK,
				new TransactionSizing(500, Duration.ofMillis(100))));
		assertThat(idle.awaitTermination(Duration.ofSeconds(60))).isTrue();
		assertThat(idle.state().status()).isEqualTo(WorkerStatus.FAILED);
		assertThat(idle.state().committedRecords()).isZero();
		assertThat(idle.state().slots().get(0).recentErrors()).anyMatch((error) -> error.contains("input deadline"));
		assertThat(kafka.committedOffsets(this.group)).containsEntry(new TopicPartition(this.input, 0), 4L);
	}

	@Test
	void oneShotRunWithMoreSlotsThanPartitionsStopsOnceItsBudgetIsCommitted() {
		// One partition, two slots: one slot has every record, the other none.
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(List.of(order("order-1", 1, "paid", 1), order("order-2", 2, "paid", 2),
				order("order-3", 3, "paid", 3)));
		Worker worker = start(settings(2, new Bounds(3, Duration.ofSeconds(30)), Mode.BLOCK,
				new TransactionSizing(500, Duration.ofMillis(100))));
		assertThat(worker.awaitTermination(Duration.ofSeconds(60))).isTrue();
		assertThat(worker.state().slots()).extracting(SlotState::status)
			.containsOnly(WorkerStatus.STOPPED);
		assertThat(worker.state().committedRecords()).isEqualTo(3);
		assertThat(kafka.committedOffsets(this.group)).containsEntry(new TopicPartition(this.input, 0), 3L);
	}

	@Test
	void secondLiveInstanceWithTheSameTransactionalIdIsCaughtAndOneOfThemReportedFenced() {
		kafka.createTopics(2, this.input, this.output);
		WorkerSettings settings = settings(1, Bounds.NONE, Mode.BLOCK,
				new TransactionSizing(500, Duration.ofMillis(100)));
		Worker first = start(settings);
		kafka.produce(List.of(order("order-1", 1, "paid", 1)));
		await().until(() -> first.state().committedRecords() == 1);
		Worker second = start(settings);
		// As input flows the two take the transactional id from each other (or, static
		// members, the group refuses one): the cluster's evidence of a twin.
		AtomicInteger sent = new AtomicInteger(1);
		await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
			int id = sent.incrementAndGet();
			kafka.produce(List.of(order("order-" + id, id, "paid", id)));
			return first.state().status() == WorkerStatus.FENCED || second.state().status() == WorkerStatus.FENCED;
		});
		Worker fenced = (first.state().status() == WorkerStatus.FENCED) ? first : second;
		Worker survivor = (fenced == first) ? second : first;
		assertThat(fenced.state().slots().get(0).recentErrors())
			.anyMatch((error) -> error.contains("another instance with transactional id " + settings.transactionalId(0)
					+ " took over"));
		assertThat(survivor.state().status()).isEqualTo(WorkerStatus.RUNNING);
		List<String> expected = java.util.stream.IntStream.rangeClosed(1, sent.get())
			.mapToObj((id) -> "order-" + id)
			.toList();
		assertThat(kafka.readCommitted(this.output, sent.get())).extracting(WorkerTests::key)
			.containsExactlyInAnyOrderElementsOf(expected);
	}

	@Test
	void instancesJoiningAndLeavingTheGroupShareItsPartitionsWithExactOutput() {
		kafka.createTopics(4, this.input, this.output);
		AtomicInteger produced = new AtomicInteger();
		TransactionSizing sizing = new TransactionSizing(500, Duration.ofMillis(100));
		CountingListener firstListener = new CountingListener();
		CountingListener secondListener = new CountingListener();
		Worker first = start(settings("tx-" + this.group + "-a", 1, Bounds.NONE, Mode.BLOCK, sizing, Map.of()),
				firstListener);
		// Input keeps arriving while the group changes: a second instance joins (partitions
		// revoked from the first, its open transaction committed first), then the first
		// leaves (its partitions move to the second).
		await().atMost(Duration.ofMinutes(2)).until(() -> feed(produced) && first.state().committedRecords() > 0);
		Worker second = start(settings("tx-" + this.group + "-b", 1, Bounds.NONE, Mode.BLOCK, sizing, Map.of()),
				secondListener);
		// Each partition's lag is reported by its owner alone: the first hears of its revocation.
		await().atMost(Duration.ofMinutes(2))
			.until(() -> feed(produced) && second.state().committedRecords() > 0
					&& firstListener.ownedPartitions().size() + secondListener.ownedPartitions().size() == 4
					&& !firstListener.ownedPartitions().isEmpty());
		assertThat(firstListener.ownedPartitions()).doesNotContainAnyElementsOf(secondListener.ownedPartitions());
		assertThat(kafka.groupType(this.group)).isEqualTo(groupType());
		assertThat(first.stop()).isTrue();
		assertThat(firstListener.ownedPartitions()).as("the stopped instance's partitions").isEmpty();
		feed(produced);
		await().atMost(Duration.ofMinutes(2)).until(() -> committedInputs() == produced.get());
		List<ConsumerRecord<byte[], byte[]>> out = kafka.readCommitted(this.output, produced.get());
		assertThat(out).hasSize(produced.get());
		assertThat(out.stream().map(WorkerTests::key).distinct()).hasSize(produced.get());
		assertThat(first.state().committedRecords() + second.state().committedRecords()).isEqualTo(produced.get());
	}

	@Test
	void identicalReplicasWithGeneratedIdentitiesShareTheGroupWithoutFencingEachOther() {
		kafka.createTopics(4, this.input, this.output);
		AtomicInteger produced = new AtomicInteger();
		TransactionSizing sizing = new TransactionSizing(500, Duration.ofMillis(100));
		// One configuration, as every replica of a Deployment has; each process resolves its
		// own identity at start-up.
		WorkerSettings configuration = settings("tx-" + this.group, 2, Bounds.NONE, Mode.BLOCK, sizing, Map.of());
		WorkerSettings a = configuration.toBuilder().instance(InstanceIdentity.generated()).membership(null).build();
		WorkerSettings b = configuration.toBuilder().instance(InstanceIdentity.generated()).membership(null).build();
		assertThat(a.transactionalId(0)).isNotEqualTo(b.transactionalId(0));
		assertThat(a.membership()).isEqualTo(Membership.DYNAMIC);
		Worker first = start(a);
		await().atMost(Duration.ofMinutes(2)).until(() -> feed(produced) && first.state().committedRecords() > 0);
		Worker second = start(b);
		await().atMost(Duration.ofMinutes(2))
			.until(() -> feed(produced) && first.state().committedRecords() > 0 && second.state().committedRecords() > 0
					&& kafka.assignments(this.group).size() == 4);
		feed(produced);
		await().atMost(Duration.ofMinutes(2)).until(() -> committedInputs() == produced.get());
		assertThat(first.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertThat(second.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertThat(kafka.readCommitted(this.output, produced.get()).stream().map(WorkerTests::key).distinct())
			.hasSize(produced.get());
		assertThat(first.state().committedRecords() + second.state().committedRecords()).isEqualTo(produced.get());
	}

	@Test
	void slotsWithoutPartitionsAreReadyOnceTheyHaveJoinedTheGroup() {
		kafka.createTopics(1, this.input, this.output);
		Worker worker = start(settings(3, Bounds.NONE, Mode.BLOCK, new TransactionSizing(500, Duration.ofMillis(100))));
		await().atMost(Duration.ofMinutes(2)).until(() -> worker.state().isReady());
		// One partition, three members: two of them were given none, and are ready all the same.
		assertThat(worker.state().slots()).hasSize(3).allMatch(SlotState::joinedGroup);
		kafka.produce(List.of(order("order-1", 1, "paid", 1)));
		await().atMost(Duration.ofMinutes(2)).until(() -> worker.state().committedRecords() == 1);
	}

	@Test
	void staticMemberThatStopsWithoutLeavingGetsItsPartitionsBackWithoutMovingAnyOther() {
		kafka.createTopics(4, this.input, this.output);
		AtomicInteger produced = new AtomicInteger();
		TransactionSizing sizing = new TransactionSizing(500, Duration.ofMillis(100));
		Membership remaining = new Membership(true, false);
		WorkerSettings a = settings("tx-" + this.group + "-a", 1, Bounds.NONE, Mode.BLOCK, sizing, Map.of())
			.toBuilder().membership(remaining).build();
		WorkerSettings b = settings("tx-" + this.group + "-b", 1, Bounds.NONE, Mode.BLOCK, sizing, Map.of())
			.toBuilder().membership(remaining).build();
		Worker first = start(a);
		Worker second = start(b);
		await().atMost(Duration.ofMinutes(2))
			.until(() -> feed(produced) && first.state().committedRecords() > 0 && second.state().committedRecords() > 0
					&& kafka.assignments(this.group).values().stream().allMatch((assigned) -> assigned.size() == 2));
		Map<String, Set<TopicPartition>> before = kafka.assignments(this.group);
		assertThat(before).containsOnlyKeys(a.transactionalId(0), b.transactionalId(0));
		// Stopped without leaving: its place and partitions wait for it (within the session
		// timeout), so the other instance neither gives up nor takes any partition.
		assertThat(first.stop()).isTrue();
		feed(produced);
		await().during(Duration.ofSeconds(3))
			.atMost(Duration.ofSeconds(30))
			.until(() -> kafka.assignments(this.group).equals(before));
		Worker restarted = start(a);
		await().atMost(Duration.ofMinutes(2)).until(() -> restarted.state().committedRecords() > 0);
		feed(produced);
		await().atMost(Duration.ofMinutes(2)).until(() -> committedInputs() == produced.get());
		assertThat(kafka.assignments(this.group)).isEqualTo(before);
		assertThat(kafka.readCommitted(this.output, produced.get()).stream().map(WorkerTests::key).distinct())
			.hasSize(produced.get());
	}

	/** Produce the next 50 paid orders; true, for use in a wait's condition. */
	private boolean feed(AtomicInteger produced) {
		int from = produced.get() + 1;
		List<ProducerRecord<byte[], byte[]>> orders = new ArrayList<>();
		for (int i = from; i < from + 50; i++) {
			orders.add(order("order-" + i, i, "paid", i));
		}
		kafka.produce(orders);
		produced.addAndGet(50);
		return true;
	}

	private long committedInputs() {
		return kafka.committedOffsets(this.group).values().stream().mapToLong(Long::longValue).sum();
	}

	@Test
	void gracefulStopCommitsTheOpenTransaction() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(paidOrders(5));
		AtomicInteger processed = new AtomicInteger();
		Worker worker = start(settings(1, Bounds.NONE, Mode.BLOCK, new TransactionSizing(500, Duration.ofMinutes(5), Duration.ofMinutes(10))),
				RecordProcessor.of((Order order) -> {
					processed.incrementAndGet();
					return normalize(order);
				}));
		await().until(() -> processed.get() == 5);
		assertThat(worker.state().committedRecords()).isZero();
		assertThat(worker.stop()).isTrue();
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.STOPPED);
		assertThat(kafka.readCommitted(this.output, 5)).hasSize(5);
		assertThat(kafka.committedOffsets(this.group)).containsEntry(new TopicPartition(this.input, 0), 5L);
	}

	Worker start(WorkerSettings settings) {
		return start(settings, RecordProcessor.of(WorkerTests::normalize));
	}

	private Worker start(WorkerSettings settings, RecordProcessor<?, ?> processor) {
		return start(new Worker(settings, processor));
	}

	private Worker start(WorkerSettings settings, WorkerListener listener) {
		return start(new Worker(settings, RecordProcessor.of(WorkerTests::normalize), RecoveryPolicy.AS_CLASSIFIED,
				listener));
	}

	private Worker start(Worker worker) {
		this.workers.add(worker);
		worker.start();
		return worker;
	}

	private WorkerSettings settings(int concurrency, Bounds bounds, Mode mode, TransactionSizing sizing) {
		return settings(concurrency, bounds, mode, sizing, Map.of());
	}

	WorkerSettings settings(int concurrency, Bounds bounds, Mode mode, TransactionSizing sizing,
			Map<String, Object> consumerExtras) {
		return settings("tx-" + this.group, concurrency, bounds, mode, sizing, consumerExtras);
	}

	private WorkerSettings settings(String transactionalId, int concurrency, Bounds bounds, Mode mode,
			TransactionSizing sizing, Map<String, Object> consumerExtras) {
		Map<String, Object> consumer = new HashMap<>(kafka.clientProperties());
		consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		consumer.putAll(groupProtocol());
		consumer.putAll(consumerExtras);
		Codecs codecs = new Codecs(new StringDeserializer(), new RawAvroDeserializer<>(Order.class),
				new StringSerializer(), new RawAvroSerializer<>(Order.class), INVALID_DATA);
		return WorkerSettings.builder("test")
			.sourceTopics(this.input)
			.destination(this.output)
			.groupId(this.group)
			.transactionalId(transactionalId)
			.instance(InstanceIdentity.configured("i", "test"))
			.consumerProperties(consumer)
			.producerProperties(kafka.clientProperties())
			.codecs(codecs)
			.concurrency(concurrency)
			.transaction(sizing)
			.invalidInput(new InvalidInputPolicy(mode, this.quarantine))
			.recovery(new Recovery(Duration.ofMillis(50), Duration.ofMillis(200)))
			.bounds(bounds)
			.membership(membership())
			.build();
	}

	ProducerRecord<byte[], byte[]> order(String key, long id, String status, long amount) {
		RecordHeaders headers = new RecordHeaders();
		headers.add("trace", bytes("trace-" + key));
		return new ProducerRecord<>(this.input, null, bytes(key), ORDERS.encode(new Order(id, status, amount)),
				headers);
	}

	/** Orders 1..count, all paid, keyed order-<id>. */
	private List<ProducerRecord<byte[], byte[]>> paidOrders(int count) {
		List<ProducerRecord<byte[], byte[]>> orders = new ArrayList<>();
		for (int i = 1; i <= count; i++) {
			orders.add(order("order-" + i, i, "paid", i));
		}
		return orders;
	}

	private ProducerRecord<byte[], byte[]> tombstone(String key) {
		RecordHeaders headers = new RecordHeaders();
		headers.add("trace", bytes("trace-" + key));
		return new ProducerRecord<>(this.input, null, bytes(key), null, headers);
	}

	static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static String key(ConsumerRecord<byte[], byte[]> record) {
		return new String(record.key(), StandardCharsets.UTF_8);
	}

	static String header(ConsumerRecord<byte[], byte[]> record, String name) {
		Header header = record.headers().lastHeader(name);
		return (header != null) ? new String(header.value(), StandardCharsets.UTF_8) : null;
	}

}
