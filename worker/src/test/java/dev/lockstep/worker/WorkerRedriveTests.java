package dev.lockstep.worker;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;

import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redriving a worker's quarantine topic against a real broker: records the processor
 * rejected, sent back once the processor is fixed.
 */
@ExtendWith(SharedKafkaBroker.class)
class WorkerRedriveTests {

	private static final int RECORDS = 20;

	private static final int KILLED_RECORDS = 10_000;

	private static KafkaFixture kafka;

	private final String input = "orders-" + UUID.randomUUID();

	private final String output = "normalized-" + UUID.randomUUID();

	private final String quarantine = "quarantine-" + UUID.randomUUID();

	private final String group = "group-" + UUID.randomUUID();

	private final List<Worker> workers = new ArrayList<>();

	private final AtomicBoolean fixed = new AtomicBoolean();

	private final CountingListener listener = new CountingListener();

	@BeforeAll
	static void connect(KafkaBroker shared) {
		kafka = new KafkaFixture(shared);
	}

	@AfterEach
	void stopWorkers() {
		this.workers.forEach(Worker::stop);
	}

	@Test
	void quarantinedRecordsAreSentBackOnceAsTheyWereReadAndOutputOnceTheProcessorIsFixed() {
		Worker worker = start();
		List<ConsumerRecord<byte[], byte[]>> quarantined = kafka.readCommitted(this.quarantine, 4);
		await().until(() -> worker.state().committedRecords() == RECORDS);
		this.fixed.set(true);

		RedriveResult result = worker.redrive(Redrive.sinceTheLast());

		assertThat(result).isEqualTo(new RedriveResult(4, 0, 0, 0, Map.of(this.input, 4L)));
		assertThat(kafka.readCommitted(this.output, RECORDS)).extracting(WorkerTests::key)
			.doesNotHaveDuplicates()
			.containsExactlyInAnyOrderElementsOf(keys());
		// Sent back as read: key, value, headers and partition, the quarantine's headers
		// left behind, counted once.
		List<ConsumerRecord<byte[], byte[]>> sentBack = sentBack(RECORDS + 4);
		assertThat(sentBack).hasSize(4).allSatisfy((record) -> {
			ConsumerRecord<byte[], byte[]> original = quarantined.stream()
				.filter((q) -> WorkerTests.key(q).equals(WorkerTests.key(record)))
				.findFirst()
				.orElseThrow();
			assertThat(record.value()).isEqualTo(original.value());
			assertThat(record.partition()).isEqualTo(Integer.parseInt(WorkerTests.header(original, "lockstep.error.partition")));
			assertThat(WorkerTests.header(record, "trace")).isEqualTo("trace-" + WorkerTests.key(record));
			assertThat(WorkerTests.header(record, QuarantineHeaders.REDRIVE_COUNT)).isEqualTo("1");
			assertThat(record.headers()).noneMatch((header) -> header.key().startsWith("lockstep.error."));
		});
		await().until(() -> worker.state().committedRecords() == RECORDS + 4);
		// Asked again: nothing was quarantined since.
		assertThat(worker.redrive(Redrive.sinceTheLast())).isEqualTo(RedriveResult.NONE);
	}

	@Test
	void aRecordThatKeepsFailingStaysInQuarantineAfterItsRedrivesAndARedriveFromATimeReadsAgain() {
		Worker worker = start();
		kafka.readCommitted(this.quarantine, 4);
		await().until(() -> worker.state().committedRecords() == RECORDS);
		Instant beforeRedrives = Instant.now();
		Redrive bad7 = new Redrive(null, Set.of(), null, null, "bad-7", 2, "test");

		// bad-7 keeps failing: back to quarantine each time, with its count, until the guard keeps it.
		assertThat(worker.redrive(bad7)).isEqualTo(new RedriveResult(1, 0, 3, 0, Map.of(this.input, 1L)));
		kafka.readCommitted(this.quarantine, 5);
		assertThat(worker.redrive(bad7)).isEqualTo(new RedriveResult(1, 0, 0, 0, Map.of(this.input, 1L)));
		List<ConsumerRecord<byte[], byte[]>> quarantined = kafka.readCommitted(this.quarantine, 6);
		assertThat(quarantined).filteredOn((record) -> WorkerTests.key(record).equals("bad-7"))
			.extracting((record) -> WorkerTests.header(record, QuarantineHeaders.REDRIVE_COUNT))
			.containsExactlyInAnyOrder(null, "1", "2");
		assertThat(worker.redrive(bad7)).isEqualTo(new RedriveResult(0, 1, 0, 0, Map.of()));
		// Counted once the transactions holding them were committed (heard just after).
		await().untilAsserted(() -> assertThat(this.listener.requarantined).hasValue(2));

		// Fixed: the four first quarantined, read again from a time (the three the key filter
		// passed over among them), each output once.
		this.fixed.set(true);
		Redrive firstQuarantined = new Redrive(Instant.EPOCH, Set.of(FailureCategory.INVALID_INPUT), null,
				beforeRedrives, null, 2, "test");
		assertThat(worker.redrive(firstQuarantined)).isEqualTo(new RedriveResult(4, 0, 2, 0, Map.of(this.input, 4L)));
		assertThat(kafka.readCommitted(this.output, RECORDS)).extracting(WorkerTests::key)
			.doesNotHaveDuplicates()
			.containsExactlyInAnyOrderElementsOf(keys());
	}

	@Test
	void recordsItCannotRouteOrReadAreCountedAndPassedOverAndSkippedOnesLeft() {
		Worker worker = start();
		kafka.readCommitted(this.quarantine, 4);
		kafka.produce(List.of(quarantined("elsewhere", "other-topic", "0", null, null),
				quarantined("no-partition", this.input, "nine", null, null),
				quarantined("gone-partition", this.input, "7", null, null),
				quarantined("odd-count", this.input, "0", "many", null),
				quarantined("skipped", this.input, "0", null, "operator")));
		this.fixed.set(true);

		// The four the worker quarantined and two whose partition is unknown, sent back by key.
		assertThat(worker.redrive(Redrive.sinceTheLast())).isEqualTo(new RedriveResult(6, 1, 1, 1,
				Map.of(this.input, 6L)));
		assertThat(kafka.readCommitted(this.output, RECORDS + 2)).extracting(WorkerTests::key)
			.doesNotHaveDuplicates()
			.contains("no-partition", "gone-partition")
			.doesNotContain("elsewhere", "odd-count", "skipped");
		assertThat(worker.redrive(Redrive.sinceTheLast())).isEqualTo(RedriveResult.NONE);
	}

	private ProducerRecord<byte[], byte[]> quarantined(String key, String topic, String partition, String count,
			String skipped) {
		RecordHeaders headers = new RecordHeaders();
		QuarantineHeaders.add(headers, QuarantineHeaders.TOPIC, topic);
		QuarantineHeaders.add(headers, QuarantineHeaders.PARTITION, partition);
		if (count != null) {
			QuarantineHeaders.add(headers, QuarantineHeaders.REDRIVE_COUNT, count);
		}
		if (skipped != null) {
			QuarantineHeaders.add(headers, QuarantineHeaders.SKIPPED, skipped);
		}
		return new ProducerRecord<>(this.quarantine, 0, WorkerTests.bytes(key), WorkerTests.bytes("value of " + key),
				headers);
	}

	@Test
	void aRedriveKilledMidwayAndAskedAgainSendsEveryRecordBackOnce() throws Exception {
		Worker worker = quarantineAllThenFix();

		Process redrive = redriveProcess();
		try {
			// Killed once some of its transactions committed, and not all.
			await().atMost(Duration.ofMinutes(2))
				.pollInterval(Duration.ofMillis(10))
				.until(() -> !redrive.isAlive() || hasRedriveCommitted());
			assertThat(redrive.isAlive()).as("the redrive still running when it has made progress").isTrue();
			redrive.destroyForcibly().waitFor();
		}
		finally {
			redrive.destroyForcibly();
		}

		RedriveResult rest = worker.redrive(Redrive.sinceTheLast());

		// Some were sent back before the kill, the rest after: each once.
		assertTheRestSentBackAndEachRecordOnce(rest);
		List<ConsumerRecord<byte[], byte[]>> out = kafka.readCommitted(this.output, KILLED_RECORDS);
		assertThat(out).hasSize(KILLED_RECORDS).extracting(WorkerTests::key).doesNotHaveDuplicates();
	}

	@Test
	void twoRedrivesAtOnceFenceEachOtherAndSendEveryRecordBackOnce() {
		Worker worker = quarantineAllThenFix();
		CompletableFuture<RedriveResult> first = redriveCommittingAgain(anotherInstance(worker));
		RedriveResult second = worker.redrive(Redrive.sinceTheLast());

		// The second's start fenced the first, which fails; the second goes on from the first's last commit.
		assertThat(first).failsWithin(Duration.ofMinutes(1));
		assertTheRestSentBackAndEachRecordOnce(second);
	}

	@Test
	void aRedriveRunningWhenItsWorkerStopsEndsAndTheNextSendsTheRestBackOnce() {
		Worker worker = quarantineAllThenFix();
		Worker another = anotherInstance(worker);
		CompletableFuture<RedriveResult> stopped = redriveCommittingAgain(another);

		another.stop();

		assertThat(stopped).failsWithin(Duration.ofSeconds(30))
			.withThrowableThat()
			.withMessageContaining("stopped with the worker after sending back")
			.withRootCauseInstanceOf(WakeupException.class);
		RedriveResult rest = worker.redrive(Redrive.sinceTheLast());
		assertTheRestSentBackAndEachRecordOnce(rest);
	}

	/** A worker that quarantines all {@code KILLED_RECORDS} of its input, then is fixed. */
	private Worker quarantineAllThenFix() {
		Worker worker = start(KILLED_RECORDS, (i) -> "bad-" + i);
		kafka.readCommitted(this.quarantine, KILLED_RECORDS);
		this.fixed.set(true);
		return worker;
	}

	/** A redrive that found some records sent back already sent the rest: each record once in all. */
	private void assertTheRestSentBackAndEachRecordOnce(RedriveResult rest) {
		assertThat(rest.redriven()).isBetween(1L, KILLED_RECORDS - 1L);
		List<ConsumerRecord<byte[], byte[]>> sentBack = sentBack(2 * KILLED_RECORDS);
		assertThat(sentBack).as("records sent back").hasSize(KILLED_RECORDS);
		assertThat(sentBack).extracting(WorkerTests::key).doesNotHaveDuplicates();
	}

	/** Another instance of the worker (not started): small polls make many transactions. */
	private Worker anotherInstance(Worker worker) {
		RecordProcessor<String, String> unused = (record, output) -> {
		};
		Worker another = new Worker(worker.settings()
			.toBuilder()
			.consumerProperties(Map.of("bootstrap.servers", kafka.bootstrapServers(), "max.poll.records", 50))
			.build(), unused);
		// Stopped after each test, with any redrive it still runs.
		this.workers.add(another);
		return another;
	}

	/** A redrive on another thread, returned once it has committed and still runs. */
	private CompletableFuture<RedriveResult> redriveCommittingAgain(Worker worker) {
		CompletableFuture<RedriveResult> redrive = CompletableFuture
			.supplyAsync(() -> worker.redrive(Redrive.sinceTheLast()));
		await().atMost(Duration.ofMinutes(2))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> redrive.isDone() || hasRedriveCommitted());
		assertThat(redrive).as("the redrive still running when it has made progress").isNotDone();
		return redrive;
	}

	/** The input's records a redrive sent back, once the input holds {@code inInput} records. */
	private List<ConsumerRecord<byte[], byte[]>> sentBack(int inInput) {
		return kafka.readCommitted(this.input, inInput)
			.stream()
			.filter((record) -> record.headers().lastHeader(QuarantineHeaders.REDRIVE_COUNT) != null)
			.toList();
	}

	private boolean hasRedriveCommitted() {
		return kafka.committedOffsets(this.group + "-redrive").values().stream().anyMatch((offset) -> offset > 0);
	}

	private Process redriveProcess() throws IOException {
		List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), RedriveProcess.class.getName(), kafka.bootstrapServers(),
				this.group, this.input, this.quarantine);
		return new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(Path.of("target", "redrive-process.log").toFile()))
			.start();
	}

	private Worker start() {
		return start(RECORDS, (i) -> ((i % 5 == 2) ? "bad-" : "good-") + i);
	}

	private Worker start(int count, IntFunction<String> keys) {
		kafka.createTopics(2, this.input, this.output, this.quarantine);
		List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			String key = keys.apply(i);
			RecordHeaders headers = new RecordHeaders();
			headers.add("trace", WorkerTests.bytes("trace-" + key));
			records.add(new ProducerRecord<>(this.input, null, WorkerTests.bytes(key), WorkerTests.bytes("value of " + key),
					headers));
		}
		kafka.produce(records);
		WorkerSettings settings = KafkaFixture
			.stringWorker(kafka.bootstrapServers(), "redrive", this.input, this.output, this.group)
			.transaction(new TransactionSizing(500, Duration.ofMillis(100)))
			// Every record may be quarantined: the guard never blocks.
			.invalidInput(new InvalidInputPolicy(Mode.QUARANTINE, this.quarantine,
					new InvalidInputPolicy.QuarantineGuard(100, 1.0)))
			.build();
		RecordProcessor<String, String> processor = (record, output) -> {
			if (record.key().startsWith("bad-") && !this.fixed.get()) {
				throw new InvalidRecordException("no rule for " + record.key() + " yet");
			}
			output.toDestination(record.key(), record.value().toUpperCase(), null);
		};
		Worker worker = new Worker(settings, processor, RecoveryPolicy.AS_CLASSIFIED, this.listener);
		this.workers.add(worker);
		worker.start();
		return worker;
	}

	/** Twenty orders; four of them the processor cannot handle until it is fixed. */
	private static List<String> keys() {
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < RECORDS; i++) {
			keys.add(((i % 5 == 2) ? "bad-" : "good-") + i);
		}
		return keys;
	}

}
