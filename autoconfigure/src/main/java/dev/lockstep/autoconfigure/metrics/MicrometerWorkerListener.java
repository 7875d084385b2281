package dev.lockstep.autoconfigure.metrics;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

import dev.lockstep.worker.FailureCategory;
import dev.lockstep.worker.OffsetReset;
import dev.lockstep.worker.RedriveResult;
import dev.lockstep.worker.SlotState;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;

/**
 * Publishes what workers do as Micrometer meters (names under {@code lockstep.worker},
 * tag {@code worker}) and binds the Kafka client metrics of every consumer and producer a
 * worker creates, as Spring Boot does for its own client factories.
 */
public class MicrometerWorkerListener implements WorkerListener {

	private static final List<String> RECORD_OUTCOMES = List.of("processed", "tombstone", "quarantined", "rejected");

	private static final List<String> TRANSACTION_RESULTS = List.of("committed", "aborted");

	private final MeterRegistry registry;

	private final Map<Object, KafkaClientMetrics> clientMetrics = new ConcurrentHashMap<>();

	// Per worker and partition, the gauge of the slot that owns the partition: removed when
	// the slot gives it up, so that summing the lag over replicas counts each partition once.
	// Registered, re-owned and removed under lagLock (rare: at assignments and revocations),
	// so that a removal never takes away a gauge another slot has just taken over.
	private final Map<String, PartitionLag> lag = new ConcurrentHashMap<>();

	private final Object lagLock = new Object();

	// Looked up once per record: kept rather than built each time.
	private final Map<String, Timers> timers = new ConcurrentHashMap<>();

	/**
	 * Create the listener.
	 * @param registry where meters go
	 */
	public MicrometerWorkerListener(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void workerCreated(String worker) {
		// Every meter at zero from the start, for every tag value: dashboards and alerts
		// see 0, not "no data", until the first event.
		batches(worker);
		RECORD_OUTCOMES.forEach((outcome) -> records(worker, outcome));
		recordsOut(worker);
		TRANSACTION_RESULTS.forEach((result) -> transactions(worker, result));
		for (FailureCategory category : FailureCategory.values()) {
			recoveries(worker, category);
		}
		for (OffsetReset.Target target : OffsetReset.Target.values()) {
			offsetResets(worker, target);
		}
		redriven(worker);
		redriveKept(worker);
		requarantined(worker);
		retries(worker);
		for (WorkerSettings.InvalidInputPolicy.Mode outcome : WorkerSettings.InvalidInputPolicy.Mode.values()) {
			retriesExhausted(worker, outcome);
		}
		transactionDuration(worker);
		commitDuration(worker);
		recordWait(worker);
		processingDuration(worker);
	}

	@Override
	public void consumerCreated(String worker, int slot, Consumer<?, ?> consumer) {
		bind(consumer, new KafkaClientMetrics(consumer));
	}

	@Override
	public void consumerClosing(String worker, int slot, Consumer<?, ?> consumer) {
		unbind(consumer);
	}

	@Override
	public void producerCreated(String worker, int slot, Producer<?, ?> producer) {
		bind(producer, new KafkaClientMetrics(producer));
	}

	@Override
	public void producerClosing(String worker, int slot, Producer<?, ?> producer) {
		unbind(producer);
	}

	@Override
	public void polled(String worker, int slot, int records, Map<TopicPartition, Long> partitionLag) {
		if (records > 0) {
			batches(worker).increment();
		}
		partitionLag.forEach((partition, behind) -> {
			PartitionLag owned = this.lag.get(worker + "/" + partition);
			if (owned == null || owned.slot() != slot) {
				owned = own(worker, slot, partition);
			}
			owned.value().set(behind);
		});
	}

	@Override
	public void partitionsRevoked(String worker, int slot, Collection<TopicPartition> partitions) {
		synchronized (this.lagLock) {
			for (TopicPartition partition : partitions) {
				String key = worker + "/" + partition;
				PartitionLag owned = this.lag.get(key);
				if (owned != null && owned.slot() == slot) {
					this.lag.remove(key);
					this.registry.remove(owned.gauge());
				}
			}
		}
	}

	@Override
	public void concurrentSlotCreated(String worker, int slot, IntSupplier inFlight) {
		Gauge.builder("lockstep.worker.records.in.flight", inFlight, IntSupplier::getAsInt)
			.description("Records a slot is processing, or holds done until earlier ones of their partition are")
			.tag("worker", worker)
			.tag("slot", Integer.toString(slot))
			.strongReference(true)
			.register(this.registry);
		timers(worker);
	}

	@Override
	public void recordWaited(String worker, int slot, long waitedNanos) {
		timers(worker).waited.record(waitedNanos, TimeUnit.NANOSECONDS);
	}

	@Override
	public void recordProcessed(String worker, int slot, long processingNanos) {
		timers(worker).processing.record(processingNanos, TimeUnit.NANOSECONDS);
	}

	@Override
	public void committed(String worker, int slot, CommitOutcome outcome) {
		records(worker, "processed").increment(outcome.processed() - outcome.tombstones());
		records(worker, "tombstone").increment(outcome.tombstones());
		records(worker, "quarantined").increment(outcome.quarantined());
		requarantined(worker).increment(outcome.requarantined());
		recordsOut(worker).increment(outcome.outputs());
		transactions(worker, "committed").increment();
		transactionDuration(worker).record(outcome.transactionDuration());
		commitDuration(worker).record(outcome.commitDuration());
	}

	@Override
	public void aborted(String worker, int slot, int records) {
		transactions(worker, "aborted").increment();
	}

	@Override
	public void recovered(String worker, int slot, FailureCategory category) {
		recoveries(worker, category).increment();
	}

	@Override
	public void rejected(String worker, int slot, SlotState.BlockedRecord record) {
		records(worker, "rejected").increment();
	}

	@Override
	public void recordRetried(String worker, int slot, int failedAttempts) {
		retries(worker).increment();
	}

	@Override
	public void retriesExhausted(String worker, int slot, WorkerSettings.InvalidInputPolicy.Mode outcome) {
		retriesExhausted(worker, outcome).increment();
	}

	@Override
	public void redriven(String worker, RedriveResult result) {
		redriven(worker).increment(result.redriven());
		redriveKept(worker).increment(result.keptByLoopGuard());
	}

	@Override
	public void offsetsReset(String worker, int slot, OffsetReset reset, Map<TopicPartition, Long> moved) {
		offsetResets(worker, reset.target()).increment(moved.size());
	}

	private Counter offsetResets(String worker, OffsetReset.Target target) {
		return Counter.builder("lockstep.worker.offset.resets")
			.description("Partitions an operator's offset reset moved, by target")
			.tag("worker", worker)
			.tag("target", target.name().toLowerCase(Locale.ROOT))
			.register(this.registry);
	}

	private Counter redriven(String worker) {
		return Counter.builder("lockstep.worker.redriven")
			.description("Quarantined records a redrive sent back to their topic")
			.tag("worker", worker)
			.register(this.registry);
	}

	private Counter requarantined(String worker) {
		return Counter.builder("lockstep.worker.requarantined")
			.description("Records a redrive sent back that were quarantined again, in committed transactions")
			.tag("worker", worker)
			.register(this.registry);
	}

	private Counter redriveKept(String worker) {
		return Counter.builder("lockstep.worker.redrive.kept")
			.description("Quarantined records a redrive kept in quarantine: sent back as often as allowed already")
			.tag("worker", worker)
			.register(this.registry);
	}

	private Counter retries(String worker) {
		return Counter.builder("lockstep.worker.retries")
			.description("Records whose processor failed with attempts of their retry budget left")
			.tag("worker", worker)
			.register(this.registry);
	}

	private Counter retriesExhausted(String worker, WorkerSettings.InvalidInputPolicy.Mode outcome) {
		return Counter.builder("lockstep.worker.retries.exhausted")
			.description("Records whose retry budget was spent, by what the budget does then")
			.tag("worker", worker)
			.tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
			.register(this.registry);
	}

	private Counter batches(String worker) {
		return Counter.builder("lockstep.worker.batches")
			.description("Polls that returned records")
			.tag("worker", worker)
			.register(this.registry);
	}

	private Counter records(String worker, String outcome) {
		return Counter.builder("lockstep.worker.records")
			.description("Input records in committed transactions, by outcome; rejected counts block attempts")
			.tag("worker", worker)
			.tag("outcome", outcome)
			.register(this.registry);
	}

	private Counter recordsOut(String worker) {
		return Counter.builder("lockstep.worker.records.out")
			.description("Records written to output topics in committed transactions")
			.tag("worker", worker)
			.register(this.registry);
	}

	private Counter transactions(String worker, String result) {
		return Counter.builder("lockstep.worker.transactions")
			.description("Transactions, by result")
			.tag("worker", worker)
			.tag("result", result)
			.register(this.registry);
	}

	private Counter recoveries(String worker, FailureCategory category) {
		return Counter.builder("lockstep.worker.recoveries")
			.description("Failures recovered from, by category")
			.tag("worker", worker)
			.tag("category", category.name().toLowerCase(Locale.ROOT))
			.register(this.registry);
	}

	private Timer transactionDuration(String worker) {
		return Timer.builder("lockstep.worker.transaction.duration")
			.description("From the start of a transaction to the end of its commit")
			.tag("worker", worker)
			.register(this.registry);
	}

	private Timer commitDuration(String worker) {
		return Timer.builder("lockstep.worker.commit.duration")
			.description("Sending the offsets to the transaction and committing it")
			.tag("worker", worker)
			.register(this.registry);
	}

	private Timers timers(String worker) {
		return this.timers.computeIfAbsent(worker, (name) -> new Timers(recordWait(name), processingDuration(name)));
	}

	private Timer recordWait(String worker) {
		return Timer.builder("lockstep.worker.record.wait")
			.description("From a record's hand-over to the slot's pool to the start of its processing: behind its key, "
					+ "or for a thread (ordering key or none)")
			.tag("worker", worker)
			.register(this.registry);
	}

	// No histogram buckets unless asked for (Spring Boot's
	// management.metrics.distribution.percentiles-histogram): recorded for every record,
	// they cost a fast processor a quarter of its throughput.
	private Timer processingDuration(String worker) {
		return Timer.builder("lockstep.worker.processing.duration")
			.description("Decoding, processing and encoding one record (ordering key or none)")
			.tag("worker", worker)
			.register(this.registry);
	}

	// The partition's gauge for this slot: registered, or taken over from the slot that had
	// the partition before (a lost partition can be assigned again before its loss is heard).
	private PartitionLag own(String worker, int slot, TopicPartition partition) {
		synchronized (this.lagLock) {
			String key = worker + "/" + partition;
			PartitionLag previous = this.lag.get(key);
			PartitionLag owned = (previous != null) ? new PartitionLag(slot, previous.gauge(), previous.value())
					: registerLag(worker, slot, partition);
			this.lag.put(key, owned);
			return owned;
		}
	}

	private PartitionLag registerLag(String worker, int slot, TopicPartition partition) {
		AtomicLong value = new AtomicLong();
		Gauge gauge = Gauge.builder("lockstep.worker.lag", value, AtomicLong::get)
			.description("Records behind the end of the partition (read_committed: markers not counted)")
			.tag("worker", worker)
			.tag("topic", partition.topic())
			.tag("partition", Integer.toString(partition.partition()))
			.register(this.registry);
		return new PartitionLag(slot, gauge, value);
	}

	private void bind(Object client, KafkaClientMetrics metrics) {
		metrics.bindTo(this.registry);
		this.clientMetrics.put(client, metrics);
	}

	private void unbind(Object client) {
		KafkaClientMetrics metrics = this.clientMetrics.remove(client);
		if (metrics != null) {
			metrics.close();
		}
	}

	private record Timers(Timer waited, Timer processing) {

	}

	private record PartitionLag(int slot, Gauge gauge, AtomicLong value) {

	}

}
