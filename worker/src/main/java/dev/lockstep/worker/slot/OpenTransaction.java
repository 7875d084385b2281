package dev.lockstep.worker.slot;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import dev.lockstep.worker.QuarantineHeaders;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.observation.TransactionObservation;
import dev.lockstep.worker.observation.TransactionObservationContext;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The bookkeeping of one open transaction: the input offsets it will commit, the first
 * send that failed (it is the producer callback of the transaction's sends), and when it
 * is due.
 */
final class OpenTransaction implements Callback {

	private final TransactionObservation observation;

	private final long startedNanos = System.nanoTime();

	// The wall clock too: the monotonic clock may not advance while a VM is frozen.
	private final long startedMillis = System.currentTimeMillis();

	// Next offset per partition; the map key of the last record is kept so that a run of
	// records from one partition allocates nothing.
	private final Map<TopicPartition, long[]> nextOffsets = new HashMap<>();

	private TopicPartition lastPartition;

	private long[] lastNextOffset;

	private volatile Exception failedDelivery;

	private int records;

	private int tombstones;

	private int quarantined;

	private int requarantined;

	private int outputs;

	OpenTransaction(TransactionObservation observation) {
		this.observation = observation;
	}

	/**
	 * The transaction committed, or was given up: its observation ends.
	 * @param result how it ended
	 */
	void ended(TransactionObservationContext.Result result) {
		this.observation.ended(result, this.records);
	}

	@Override
	public void onCompletion(RecordMetadata metadata, Exception exception) {
		if (exception != null && this.failedDelivery == null) {
			this.failedDelivery = exception;
		}
	}

	void output() {
		this.outputs++;
	}

	void quarantined(ConsumerRecord<?, ?> record) {
		processed(record);
		this.quarantined++;
		if (record.headers().lastHeader(QuarantineHeaders.REDRIVE_COUNT) != null) {
			this.requarantined++;
		}
	}

	void processed(ConsumerRecord<?, ?> record, boolean tombstone) {
		processed(record);
		if (tombstone) {
			this.tombstones++;
		}
	}

	private void processed(ConsumerRecord<?, ?> record) {
		TopicPartition last = this.lastPartition;
		if (last == null || last.partition() != record.partition() || !last.topic().equals(record.topic())) {
			this.lastPartition = new TopicPartition(record.topic(), record.partition());
			this.lastNextOffset = this.nextOffsets.computeIfAbsent(this.lastPartition, (partition) -> new long[1]);
		}
		this.lastNextOffset[0] = record.offset() + 1;
		this.records++;
	}

	/**
	 * Commit a partition's offset as an operator moved it, back or forward, rather than
	 * past the records read.
	 */
	void movedTo(TopicPartition partition, long offset) {
		this.nextOffsets.computeIfAbsent(partition, (key) -> new long[1])[0] = offset;
		this.lastPartition = null;
	}

	boolean isDue(WorkerSettings.TransactionSizing sizing) {
		return this.records >= sizing.maxRecords()
				|| System.nanoTime() - this.startedNanos >= sizing.maxInterval().toNanos();
	}

	Duration age() {
		return Duration.ofMillis(Math.max((System.nanoTime() - this.startedNanos) / 1_000_000,
				System.currentTimeMillis() - this.startedMillis));
	}

	boolean isEmpty() {
		return this.records == 0;
	}

	int records() {
		return this.records;
	}

	WorkerListener.CommitOutcome outcome(long commitStartedNanos) {
		long now = System.nanoTime();
		return new WorkerListener.CommitOutcome(this.records - this.quarantined, this.tombstones, this.quarantined,
				this.requarantined, this.outputs, Duration.ofNanos(now - this.startedNanos),
				Duration.ofNanos(now - commitStartedNanos));
	}

	/** The offsets to commit: the next offset of every partition the transaction read. */
	Map<TopicPartition, OffsetAndMetadata> offsets() {
		Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
		this.nextOffsets.forEach((partition, next) -> offsets.put(partition, new OffsetAndMetadata(next[0])));
		return offsets;
	}

	/**
	 * Throw the failure of the first send that failed so far, if any.
	 * @throws ExecutionException with a failure that is not a runtime exception
	 */
	void throwFailedDelivery() throws ExecutionException {
		Exception failure = this.failedDelivery;
		if (failure instanceof RuntimeException runtime) {
			throw runtime;
		}
		if (failure != null) {
			throw new ExecutionException(failure);
		}
	}

}
