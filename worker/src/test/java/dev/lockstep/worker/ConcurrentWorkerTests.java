package dev.lockstep.worker;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.worker.WorkerSettings.Codecs;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.Ordering;
import dev.lockstep.worker.WorkerSettings.Recovery;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Key and unordered processing against a real KRaft broker in the test JVM: per-key
 * order with a processor of random delay, aborts and a revoke with records in flight,
 * invalid input under both policies, and a graceful stop.
 */
@ExtendWith(SharedKafkaBroker.class)
class ConcurrentWorkerTests {

	private static final Duration WAIT = Duration.ofMinutes(2);

	private static KafkaBroker broker;

	private static KafkaFixture kafka;

	private static ScheduledExecutorService client;

	private final String input = "events-" + UUID.randomUUID();

	private final String output = "out-" + UUID.randomUUID();

	private final String quarantine = "quarantine-" + UUID.randomUUID();

	private final String group = "group-" + UUID.randomUUID();

	private final List<Worker> workers = new ArrayList<>();

	@BeforeAll
	static void connect(KafkaBroker shared) {
		broker = shared;
		kafka = new KafkaFixture(broker);
		client = Executors.newSingleThreadScheduledExecutor();
	}

	@AfterAll
	static void stopBroker() {
		client.shutdownNow();
	}

	@AfterEach
	void stopWorkers() {
		this.workers.forEach(Worker::stop);
	}

	@Test
	void recordsOfOneKeyKeepTheirOrderWithAProcessorOfRandomDelay() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(events(0, 3000, 100));
		AtomicInteger running = new AtomicInteger();
		AtomicInteger mostRunning = new AtomicInteger();
		CountingListener listener = new CountingListener();
		Worker worker = start(settings(Ordering.KEY, 64, "tx-" + this.group, Mode.BLOCK), (String value) -> {
			mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
			Thread.sleep(ThreadLocalRandom.current().nextInt(4));
			running.decrementAndGet();
			return upper(value);
		}, listener);
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 3000);
		List<ConsumerRecord<byte[], byte[]>> out = kafka.readCommitted(this.output, 3000);
		assertExactlyOnceInKeyOrder(out, 3000);
		assertThat(mostRunning.get()).isGreaterThan(1);
		assertThat(listener.processingTimed).hasValue(3000);
		// Records the slot ran itself (the first ones, before the processor was seen slow)
		// were never handed over, so never waited.
		assertThat(listener.waitsTimed.get()).isPositive().isLessThanOrEqualTo(3000);
		assertThat(listener.inFlight(0)).isZero();
	}

	@Test
	void anAsynchronousProcessorHoldsManyRecordsInFlightOnFewThreadsOneCallPerKeyAtATime() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(events(0, 5000, 500));
		AtomicInteger running = new AtomicInteger();
		AtomicInteger mostRunning = new AtomicInteger();
		Set<String> keysRunning = ConcurrentHashMap.newKeySet();
		List<String> overlaps = new CopyOnWriteArrayList<>();
		Set<String> callingThreads = ConcurrentHashMap.newKeySet();
		Worker worker = start(settings(Ordering.KEY, 1000, "tx-" + this.group, Mode.BLOCK),
				AsyncRecordProcessor.of((String value) -> {
					String key = value.substring(0, value.indexOf('#'));
					callingThreads.add(Thread.currentThread().getName());
					if (!keysRunning.add(key)) {
						overlaps.add(value);
					}
					mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
					return later(ThreadLocalRandom.current().nextInt(1, 20), () -> {
						running.decrementAndGet();
						keysRunning.remove(key);
						return upper(value);
					});
				}));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 5000);
		assertExactlyOnceInKeyOrder(kafka.readCommitted(this.output, 5000), 5000);
		assertThat(overlaps).as("calls of one key at the same time").isEmpty();
		// Hundreds of calls outstanding at once, on a pool of at most one thread per core.
		assertThat(mostRunning.get()).isGreaterThan(100).isLessThanOrEqualTo(500);
		assertThat(callingThreads).hasSizeLessThanOrEqualTo(Runtime.getRuntime().availableProcessors());
	}

	@Test
	void anAsynchronousFailureAbortsAndReplaysAndARejectionIsQuarantined() {
		kafka.createTopics(1, this.input, this.output, this.quarantine);
		List<ProducerRecord<byte[], byte[]>> events = events(0, 2000, 300);
		events.set(1200, record("k-bad", "bad"));
		kafka.produce(events);
		AtomicInteger calls = new AtomicInteger();
		Worker worker = start(settings(Ordering.NONE, 256, "tx-" + this.group, Mode.QUARANTINE),
				AsyncRecordProcessor.of((String value) -> later(1, () -> {
					if (calls.incrementAndGet() == 700) {
						throw new IllegalStateException("pricing service down");
					}
					return rejectBad(value);
				})));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 2000);
		assertExactlyOnceInKeyOrder(kafka.readCommitted(this.output, 1999), 1999);
		assertThat(kafka.readCommitted(this.quarantine, 1)).singleElement()
			.satisfies((record) -> assertThat(record.value()).asString(StandardCharsets.UTF_8).isEqualTo("bad"));
		assertThat(worker.state().slots().get(0).recentErrors()).anyMatch((error) -> error.contains("ABORTABLE"));
	}

	@Test
	void anAbortWithRecordsInFlightNeitherDuplicatesNorSkips() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(events(0, 2000, 300));
		AtomicInteger calls = new AtomicInteger();
		Worker worker = start(settings(Ordering.KEY, 128, "tx-" + this.group, Mode.BLOCK), (String value) -> {
			Thread.sleep(ThreadLocalRandom.current().nextInt(2));
			int call = calls.incrementAndGet();
			if (call == 400 || call == 1500) {
				throw new IllegalStateException("pricing service down at call " + call);
			}
			return upper(value);
		}, WorkerListener.NONE);
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 2000);
		assertExactlyOnceInKeyOrder(kafka.readCommitted(this.output, 2000), 2000);
		assertThat(worker.state().slots().get(0).recentErrors()).anyMatch((error) -> error.contains("ABORTABLE"));
	}

	@Test
	void aSecondInstanceJoiningMidRunTakesOverRevokedPartitionsExactly() {
		kafka.createTopics(2, this.input, this.output);
		kafka.produce(events(0, 20000, 500));
		AtomicReference<Worker> second = new AtomicReference<>();
		// Slow until the second instance has committed, so the revoke finds records in
		// flight and the second instance has partitions left to take over.
		ValueTransformer<String, String> slowUntilShared = (value) -> {
			Worker joined = second.get();
			if (joined == null || joined.state().committedRecords() == 0) {
				Thread.sleep(10);
			}
			return upper(value);
		};
		Worker first = start(settings(Ordering.KEY, 16, "tx-a-" + this.group, Mode.BLOCK), slowUntilShared,
				WorkerListener.NONE);
		await().atMost(WAIT).until(() -> first.state().committedRecords() >= 500);
		second.set(start(settings(Ordering.KEY, 16, "tx-b-" + this.group, Mode.BLOCK), ConcurrentWorkerTests::upper,
				WorkerListener.NONE));
		await().atMost(WAIT)
			.until(() -> first.state().committedRecords() + second.get().state().committedRecords() == 20000);
		assertThat(second.get().state().committedRecords()).isPositive();
		assertExactlyOnceInKeyOrder(kafka.readCommitted(this.output, 20000), 20000);
	}

	@Test
	void invalidInputUnderBlockHoldsTheSlotAtTheRecord() {
		kafka.createTopics(1, this.input, this.output);
		List<ProducerRecord<byte[], byte[]>> events = events(0, 400, 40);
		events.set(250, record("k-bad", "bad"));
		kafka.produce(events);
		Worker worker = start(settings(Ordering.NONE, 64, "tx-" + this.group, Mode.BLOCK),
				ConcurrentWorkerTests::rejectBad, WorkerListener.NONE);
		await().atMost(WAIT).until(() -> worker.state().status() == WorkerStatus.BLOCKED);
		assertThat(worker.state().slots().get(0).blockedAt().offset()).isEqualTo(250);
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 250);
		assertThat(kafka.committedOffsets(this.group)).containsEntry(new TopicPartition(this.input, 0), 250L);
		assertExactlyOnceInKeyOrder(kafka.readCommitted(this.output, 250), 250);
	}

	@Test
	void invalidInputUnderQuarantineGoesToTheQuarantineTopicInItsTransaction() {
		kafka.createTopics(1, this.input, this.output, this.quarantine);
		List<ProducerRecord<byte[], byte[]>> events = events(0, 400, 40);
		events.set(250, record("k-bad", "bad"));
		kafka.produce(events);
		Worker worker = start(settings(Ordering.KEY, 64, "tx-" + this.group, Mode.QUARANTINE),
				ConcurrentWorkerTests::rejectBad, WorkerListener.NONE);
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 400);
		assertThat(kafka.readCommitted(this.quarantine, 1)).singleElement()
			.satisfies((record) -> assertThat(record.value()).asString(StandardCharsets.UTF_8).isEqualTo("bad"));
		assertExactlyOnceInKeyOrder(kafka.readCommitted(this.output, 399), 399);
	}

	@Test
	void aGracefulStopCommitsTheRecordsInFlightAndTheNextInstanceContinuesExactly() {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(events(0, 3000, 1000));
		AtomicInteger started = new AtomicInteger();
		ValueTransformer<String, String> slow = (value) -> {
			started.incrementAndGet();
			Thread.sleep(10);
			return upper(value);
		};
		Worker first = start(settings(Ordering.KEY, 100, "tx-" + this.group, Mode.BLOCK), slow, WorkerListener.NONE);
		await().atMost(WAIT).until(() -> started.get() >= 500);
		assertThat(first.stop()).isTrue();
		long committed = kafka.committedOffsets(this.group).get(new TopicPartition(this.input, 0));
		assertThat(committed).isEqualTo(first.state().committedRecords()).isGreaterThanOrEqualTo(500);
		assertExactlyOnceInKeyOrder(kafka.readCommitted(this.output, (int) committed), (int) committed);
		Worker next = start(settings(Ordering.KEY, 100, "tx-" + this.group, Mode.BLOCK), slow, WorkerListener.NONE);
		await().atMost(WAIT).until(() -> next.state().committedRecords() == 3000 - committed);
		assertExactlyOnceInKeyOrder(kafka.readCommitted(this.output, 3000), 3000);
	}

	/**
	 * Every input's output once, and per key in input order: values are
	 * {@code <key>#<n>} with {@code n} counting up per key in the input.
	 */
	private static void assertExactlyOnceInKeyOrder(List<ConsumerRecord<byte[], byte[]>> out, int expected) {
		assertThat(out).extracting((record) -> new String(record.value(), StandardCharsets.UTF_8))
			.doesNotHaveDuplicates()
			.hasSize(expected);
		Map<String, Integer> last = new HashMap<>();
		for (ConsumerRecord<byte[], byte[]> record : out) {
			String value = new String(record.value(), StandardCharsets.UTF_8);
			String key = value.substring(0, value.indexOf('#'));
			int n = Integer.parseInt(value.substring(value.indexOf('#') + 1));
			Integer previous = last.put(key, n);
			if (previous != null) {
				assertThat(n).as("order of key %s", key).isGreaterThan(previous);
			}
		}
	}

	/**
	 * A call of a non-blocking client: its stage completes on the client's one I/O thread
	 * after the given time.
	 */
	private static <T> CompletableFuture<T> later(long millis, Supplier<T> result) {
		CompletableFuture<T> stage = new CompletableFuture<>();
		client.schedule(() -> {
			try {
				stage.complete(result.get());
			}
			catch (RuntimeException ex) {
				stage.completeExceptionally(ex);
			}
		}, millis, TimeUnit.MILLISECONDS);
		return stage;
	}

	private static String rejectBad(String value) {
		if (value.equals("bad")) {
			throw new InvalidRecordException("bad value");
		}
		return upper(value);
	}

	private static String upper(String value) {
		return value.toUpperCase(Locale.ROOT);
	}

	private Worker start(WorkerSettings settings, ValueTransformer<String, String> transformer,
			WorkerListener listener) {
		Worker worker = new Worker(settings, RecordProcessor.of(transformer), RecoveryPolicy.AS_CLASSIFIED, listener);
		this.workers.add(worker);
		worker.start();
		return worker;
	}

	private Worker start(WorkerSettings settings, AsyncRecordProcessor<String, String> processor) {
		Worker worker = new Worker(settings, processor, RecoveryPolicy.AS_CLASSIFIED, WorkerListener.NONE);
		this.workers.add(worker);
		worker.start();
		return worker;
	}

	private WorkerSettings settings(Ordering ordering, int maxInFlight, String transactionalId, Mode mode) {
		Map<String, Object> consumer = new HashMap<>(kafka.clientProperties());
		consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		Codecs codecs = new Codecs(new StringDeserializer(), new StringDeserializer(), new StringSerializer(),
				new StringSerializer());
		return WorkerSettings.builder("concurrent")
			.sourceTopics(this.input)
			.destination(this.output)
			.groupId(this.group)
			.transactionalId(transactionalId)
			.instance(InstanceIdentity.configured("i", "test"))
			.consumerProperties(consumer)
			.producerProperties(kafka.clientProperties())
			.codecs(codecs)
			.transaction(new TransactionSizing(500, Duration.ofMillis(100)))
			.invalidInput(new InvalidInputPolicy(mode, this.quarantine))
			.recovery(new Recovery(Duration.ofMillis(50), Duration.ofMillis(200)))
			.ordering(ordering)
			.maxInFlight(maxInFlight)
			.build();
	}

	/**
	 * Records {@code from..to-1} over {@code keys} keys, value {@code k<key>#<n>} with
	 * {@code n} counting up per key (from 0 when {@code from} is 0).
	 */
	private List<ProducerRecord<byte[], byte[]>> events(int from, int to, int keys) {
		List<ProducerRecord<byte[], byte[]>> events = new ArrayList<>();
		for (int i = from; i < to; i++) {
			String key = "k" + (i % keys);
			events.add(record(key, key + "#" + (i / keys)));
		}
		return events;
	}

	private ProducerRecord<byte[], byte[]> record(String key, String value) {
		return new ProducerRecord<>(this.input, null, key.getBytes(StandardCharsets.UTF_8),
				value.getBytes(StandardCharsets.UTF_8));
	}

}
