package dev.lockstep.autoconfigure.metrics;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.lockstep.worker.FailureCategory;
import dev.lockstep.worker.SlotState;
import dev.lockstep.worker.WorkerListener;
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

	private final MeterRegistry registry;

	private final Map<Object, KafkaClientMetrics> clientMetrics = new ConcurrentHashMap<>();

	private final Map<String, AtomicLong> lag = new ConcurrentHashMap<>();

	/**
	 * Create the listener.
	 * @param registry where meters go
	 */
	public MicrometerWorkerListener(MeterRegistry registry) {
		this.registry = registry;
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
			counter("lockstep.worker.batches", "Polls that returned records", worker).increment();
		}
		partitionLag.forEach((partition, behind) -> this.lag
			.computeIfAbsent(worker + "/" + partition, (key) -> registerLag(worker, partition))
			.set(behind));
	}

	@Override
	public void committed(String worker, int slot, CommitOutcome outcome) {
		records(worker, "processed", outcome.processed() - outcome.tombstones());
		records(worker, "tombstone", outcome.tombstones());
		records(worker, "quarantined", outcome.quarantined());
		Counter.builder("lockstep.worker.records.out")
			.description("Records written to output topics in committed transactions")
			.tag("worker", worker)
			.register(this.registry)
			.increment(outcome.outputs());
		transactions(worker, "committed").increment();
		Timer.builder("lockstep.worker.transaction.duration")
			.description("From the start of a transaction to the end of its commit")
			.tag("worker", worker)
			.register(this.registry)
			.record(outcome.transactionDuration());
		Timer.builder("lockstep.worker.commit.duration")
			.description("Sending the offsets to the transaction and committing it")
			.tag("worker", worker)
			.register(this.registry)
			.record(outcome.commitDuration());
	}

	@Override
	public void aborted(String worker, int slot, int records) {
		transactions(worker, "aborted").increment();
	}

	@Override
	public void recovered(String worker, int slot, FailureCategory category) {
		Counter.builder("lockstep.worker.recoveries")
			.description("Failures recovered from, by category")
			.tag("worker", worker)
			.tag("category", category.name().toLowerCase(Locale.ROOT))
			.register(this.registry)
			.increment();
	}

	@Override
	public void rejected(String worker, int slot, SlotState.BlockedRecord record) {
		records(worker, "rejected", 1);
	}

	private void records(String worker, String outcome, int count) {
		if (count > 0) {
			Counter.builder("lockstep.worker.records")
				.description("Input records in committed transactions, by outcome; rejected counts block attempts")
				.tag("worker", worker)
				.tag("outcome", outcome)
				.register(this.registry)
				.increment(count);
		}
	}

	private Counter transactions(String worker, String result) {
		return Counter.builder("lockstep.worker.transactions")
			.description("Transactions, by result")
			.tag("worker", worker)
			.tag("result", result)
			.register(this.registry);
	}

	private Counter counter(String name, String description, String worker) {
		return Counter.builder(name).description(description).tag("worker", worker).register(this.registry);
	}

	private AtomicLong registerLag(String worker, TopicPartition partition) {
		AtomicLong value = new AtomicLong();
		Gauge.builder("lockstep.worker.lag", value, AtomicLong::get)
			.description("Records behind the end of the partition (read_committed: markers not counted)")
			.tag("worker", worker)
			.tag("topic", partition.topic())
			.tag("partition", Integer.toString(partition.partition()))
			.register(this.registry);
		return value;
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

}
