package dev.lockstep.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.Ordering;
import dev.lockstep.worker.WorkerSettings.Retry;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * A worker's retry budget against a real broker: the processor fails the first two
 * attempts of every 10th record (the last of each partition, so no record after it in its
 * partition is processed ahead of it and counted).
 */
@ExtendWith(SharedKafkaBroker.class)
class WorkerRetryTests {

	private static final int RECORDS = 20;

	private static final int FAILING = RECORDS / 10;

	// Each failing record waits 0.8 s and then 1.6 s: longer together than a transaction
	// may stay open, so a slot holding its transaction through the waits would be aborted.
	private static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(2);

	private static KafkaFixture kafka;

	private final String input = "orders-" + UUID.randomUUID();

	private final String output = "normalized-" + UUID.randomUUID();

	private final String quarantine = "quarantine-" + UUID.randomUUID();

	private final String group = "group-" + UUID.randomUUID();

	private final List<Worker> workers = new ArrayList<>();

	// Every attempt, in order.
	private final Queue<Attempt> attempts = new ConcurrentLinkedQueue<>();

	private final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();

	private final AtomicBoolean downstreamBack = new AtomicBoolean();

	@BeforeAll
	static void connect(KafkaBroker shared) {
		kafka = new KafkaFixture(shared);
	}

	@AfterEach
	void stopWorkers() {
		this.workers.forEach(Worker::stop);
	}

	@ParameterizedTest
	@CsvSource({ "PARTITION, classic", "KEY, classic", "NONE, classic", "PARTITION, consumer" })
	void aBudgetOfThreeOutputsEveryRecordOnceWhileTheOtherPartitionGoesOn(Ordering ordering, String groupProtocol) {
		CountingListener listener = new CountingListener();
		Worker worker = start(retry(3, Mode.BLOCK), ordering, listener, groupProtocol);

		List<ConsumerRecord<byte[], byte[]>> out = kafka.readCommitted(this.output, RECORDS);
		assertThat(out).extracting(WorkerTests::key).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(keys());
		await().until(() -> worker.state().committedRecords() == RECORDS);
		for (String failing : failingKeys()) {
			List<Attempt> of = this.attempts.stream().filter((attempt) -> attempt.key().equals(failing)).toList();
			assertThat(of).as("attempts of " + failing).extracting(Attempt::failed).containsExactly(true, true, false);
			// Each after its back-off (0.8 s, then 1.6 s), however loaded the machine.
			assertThat(of.get(1).nanos() - of.get(0).nanos()).isGreaterThanOrEqualTo(Duration.ofMillis(800).toNanos());
			assertThat(of.get(2).nanos() - of.get(1).nanos()).isGreaterThanOrEqualTo(Duration.ofMillis(1600).toNanos());
		}
		// While the record that failed first waited for its next attempts, the other partition went on.
		List<Attempt> inOrder = List.copyOf(this.attempts);
		Attempt first = inOrder.stream().filter(Attempt::failed).findFirst().orElseThrow();
		Attempt done = inOrder.stream().filter((attempt) -> attempt.key().equals(first.key()) && !attempt.failed())
			.findFirst()
			.orElseThrow();
		String other = first.key().startsWith("p0-") ? "p1-" : "p0-";
		assertThat(inOrder.subList(inOrder.indexOf(first), inOrder.indexOf(done)))
			.anyMatch((attempt) -> attempt.key().startsWith(other));
		assertThat(listener.retried).hasValue(2 * FAILING);
		assertThat(listener.exhausted).hasValue(0);
		assertThat(listener.aborted).as("transactions aborted").hasValue(0);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
	}

	@ParameterizedTest
	@EnumSource(value = Ordering.class, names = { "PARTITION", "KEY" })
	void aBudgetOfTwoQuarantinesTheFailingRecordsWithTheirAttempts(Ordering ordering) {
		CountingListener listener = new CountingListener();
		Worker worker = start(retry(2, Mode.QUARANTINE), ordering, listener);

		List<ConsumerRecord<byte[], byte[]>> quarantined = kafka.readCommitted(this.quarantine, FAILING);
		assertThat(quarantined).extracting(WorkerTests::key).containsExactlyInAnyOrderElementsOf(failingKeys());
		assertThat(quarantined).allSatisfy((record) -> {
			assertThat(WorkerTests.header(record, "lockstep.error.attempts")).isEqualTo("2");
			assertThat(WorkerTests.header(record, "lockstep.error.category")).isEqualTo("ABORTABLE");
			assertThat(WorkerTests.header(record, "lockstep.error.first-exception"))
				.isEqualTo(IllegalStateException.class.getName());
			assertThat(WorkerTests.header(record, "lockstep.error.first-message")).endsWith("attempt 1");
			assertThat(WorkerTests.header(record, "lockstep.error.message")).endsWith("attempt 2");
			assertThat(WorkerTests.header(record, "lockstep.error.first-timestamp")).isNotBlank();
			assertThat(WorkerTests.header(record, "lockstep.error.topic")).isEqualTo(this.input);
		});
		List<ConsumerRecord<byte[], byte[]>> out = kafka.readCommitted(this.output, RECORDS - FAILING);
		assertThat(out).extracting(WorkerTests::key).doesNotHaveDuplicates().doesNotContainAnyElementsOf(failingKeys());
		await().until(() -> worker.state().committedRecords() == RECORDS);
		assertThat(listener.retried).hasValue(FAILING);
		assertThat(listener.exhausted).hasValue(FAILING);
		assertThat(listener.aborted).as("transactions aborted").hasValue(0);
	}

	@Test
	void anOperatorsPauseAndResumeLeaveAWaitingRecordToItsBackOff() {
		Worker worker = start(retry(3, Mode.BLOCK), Ordering.PARTITION, new CountingListener());
		await().until(() -> this.attempts.stream().anyMatch(Attempt::failed));
		worker.pause();
		await().until(() -> worker.state().status() == WorkerStatus.PAUSED);
		worker.resume();

		assertThat(kafka.readCommitted(this.output, RECORDS)).extracting(WorkerTests::key)
			.doesNotHaveDuplicates()
			.containsExactlyInAnyOrderElementsOf(keys());
		for (String failing : failingKeys()) {
			List<Attempt> of = this.attempts.stream().filter((attempt) -> attempt.key().equals(failing)).toList();
			assertThat(of).extracting(Attempt::failed).containsExactly(true, true, false);
			assertThat(of.get(1).nanos() - of.get(0).nanos()).isGreaterThanOrEqualTo(Duration.ofMillis(800).toNanos());
		}
	}

	@Test
	void aSpentBudgetThatBlocksHoldsTheSlotUntilTheRecordSucceeds() {
		Worker worker = start(retry(2, Mode.BLOCK), Ordering.PARTITION, new CountingListener());

		await().until(() -> worker.state().status() == WorkerStatus.BLOCKED);
		SlotState.BlockedRecord blocked = worker.state().slots().get(0).blockedAt();
		assertThat(blocked.reason()).startsWith("failed 2 attempts: ").endsWith("attempt 2");
		this.downstreamBack.set(true);

		assertThat(kafka.readCommitted(this.output, RECORDS)).extracting(WorkerTests::key)
			.doesNotHaveDuplicates()
			.containsExactlyInAnyOrderElementsOf(keys());
		await().until(() -> worker.state().committedRecords() == RECORDS);
		assertThat(worker.state().status()).isEqualTo(WorkerStatus.RUNNING);
	}

	@Test
	void aWaitingRecordWhosePartitionMovesToANewMemberWaitsThereAFullBackOffAndEveryRecordIsOutputOnce() {
		// Back-offs long enough for the group to rebalance while the first waits, on a loaded machine too.
		Retry retry = new Retry(3, Duration.ofSeconds(6), 1.0, Duration.ofSeconds(6), 0, Mode.BLOCK,
				List.of(IllegalStateException.class));
		seed();
		Worker first = member("first", retry, Ordering.PARTITION, new CountingListener(), "classic");
		await().until(() -> this.attempts.stream().filter(Attempt::failed).count() == FAILING);

		// Each partition's failing record waits in the first member: the second takes one partition over.
		Worker second = member("second", retry, Ordering.PARTITION, new CountingListener(), "classic");

		assertThat(kafka.readCommitted(this.output, RECORDS)).extracting(WorkerTests::key)
			.doesNotHaveDuplicates()
			.containsExactlyInAnyOrderElementsOf(keys());
		await().until(() -> first.state().committedRecords() + second.state().committedRecords() == RECORDS);
		Attempt moved = this.attempts.stream()
			.filter((attempt) -> attempt.member().equals("second") && attempt.failed())
			.findFirst()
			.orElseThrow(() -> new AssertionError("no waiting record moved to the second member: " + this.attempts));
		List<Attempt> of = this.attempts.stream().filter((attempt) -> attempt.key().equals(moved.key())).toList();
		// Failed in the first member, then in the second (its own first attempt), then done after its back-off there.
		assertThat(of).extracting(Attempt::member, Attempt::failed)
			.containsExactly(tuple("first", true), tuple("second", true), tuple("second", false));
		assertThat(of.get(2).nanos() - of.get(1).nanos()).isGreaterThanOrEqualTo(Duration.ofSeconds(6).toNanos());
		assertThat(first.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertThat(second.state().status()).isEqualTo(WorkerStatus.RUNNING);
	}

	private Retry retry(int attempts, Mode exhausted) {
		return new Retry(attempts, Duration.ofMillis(800), 2.0, Duration.ofSeconds(5), 0, exhausted,
				List.of(IllegalStateException.class));
	}

	private Worker start(Retry retry, Ordering ordering, WorkerListener listener) {
		return start(retry, ordering, listener, "classic");
	}

	private Worker start(Retry retry, Ordering ordering, WorkerListener listener, String groupProtocol) {
		seed();
		return member("i", retry, ordering, listener, groupProtocol);
	}

	/** Two partitions of {@code RECORDS / 2} each. */
	private void seed() {
		kafka.createTopics(2, this.input, this.output, this.quarantine);
		List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
		for (int i = 0; i < RECORDS / 2; i++) {
			for (int partition = 0; partition < 2; partition++) {
				records.add(new ProducerRecord<>(this.input, partition, WorkerTests.bytes(key(partition, i)),
						WorkerTests.bytes("value " + i)));
			}
		}
		kafka.produce(records);
	}

	/** Start a member of the worker's group, its instance id the given one. */
	private Worker member(String instance, Retry retry, Ordering ordering, WorkerListener listener,
			String groupProtocol) {
		WorkerSettings.Builder settings = KafkaFixture
			.stringWorker(kafka.bootstrapServers(), "retry", this.input, this.output, this.group)
			.instance(InstanceIdentity.configured(instance, "test"))
			.consumerProperties(Map.of("bootstrap.servers", kafka.bootstrapServers(), "group.protocol", groupProtocol))
			.transaction(new TransactionSizing(500, Duration.ofMillis(100), TRANSACTION_TIMEOUT))
			.invalidInput(new InvalidInputPolicy(Mode.BLOCK, this.quarantine))
			.retry(retry)
			.ordering(ordering);
		if (ordering != Ordering.PARTITION) {
			settings.maxInFlight(8);
		}
		RecordProcessor<String, String> processor = (record, output) -> process(instance, record, output);
		Worker worker = new Worker(settings.build(), processor, RecoveryPolicy.AS_CLASSIFIED, listener);
		this.workers.add(worker);
		worker.start();
		return worker;
	}

	/** Every 10th record fails its first two attempts, unless the downstream is back. */
	private void process(String member, ConsumerRecord<String, String> record, Output output) {
		String key = record.key();
		if (key.endsWith("-9") && !this.downstreamBack.get()) {
			int failed = this.failures.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
			if (failed <= 2) {
				this.attempts.add(new Attempt(member, key, true, System.nanoTime()));
				throw new IllegalStateException("downstream unavailable for " + key + ", attempt " + failed);
			}
		}
		this.attempts.add(new Attempt(member, key, false, System.nanoTime()));
		output.toDestination(key, record.value().toUpperCase(), null);
	}

	private record Attempt(String member, String key, boolean failed, long nanos) {

	}

	private static String key(int partition, int i) {
		return "p" + partition + "-" + i;
	}

	private static List<String> keys() {
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < RECORDS / 2; i++) {
			keys.add(key(0, i));
			keys.add(key(1, i));
		}
		return keys;
	}

	private static List<String> failingKeys() {
		return keys().stream().filter((key) -> key.endsWith("-9")).toList();
	}

}
