package dev.lockstep.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The bookkeeping of one open transaction: the input offsets it will commit, the sends
 * it must see succeed, and when it is due.
 */
final class OpenTransaction {

	private final long startedNanos = System.nanoTime();

	private final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();

	private final List<Future<RecordMetadata>> sends = new ArrayList<>();

	private int records;

	private int tombstones;

	private int quarantined;

	private int outputs;

	void sent(Future<RecordMetadata> send) {
		this.sends.add(send);
	}

	void output(Future<RecordMetadata> send) {
		sent(send);
		this.outputs++;
	}

	void quarantined(ConsumerRecord<?, ?> record) {
		processed(record);
		this.quarantined++;
	}

	void processed(ConsumerRecord<?, ?> record, boolean tombstone) {
		processed(record);
		if (tombstone) {
			this.tombstones++;
		}
	}

	private void processed(ConsumerRecord<?, ?> record) {
		this.offsets.put(new TopicPartition(record.topic(), record.partition()),
				new OffsetAndMetadata(record.offset() + 1));
		this.records++;
	}

	boolean isDue(WorkerSettings.TransactionSizing sizing) {
		return this.records >= sizing.maxRecords()
				|| System.nanoTime() - this.startedNanos >= sizing.maxInterval().toNanos();
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
				this.outputs, Duration.ofNanos(now - this.startedNanos),
				Duration.ofNanos(now - commitStartedNanos));
	}

	Map<TopicPartition, OffsetAndMetadata> offsets() {
		return this.offsets;
	}

	/**
	 * Check every send of the transaction succeeded. Call after the producer is flushed.
	 * @throws ExecutionException with the first failed send's cause
	 */
	void checkDeliveries() throws ExecutionException, InterruptedException {
		for (Future<RecordMetadata> send : this.sends) {
			send.get();
		}
	}

}
