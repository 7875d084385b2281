package dev.lockstep.benchmarks.throughput;

import java.util.HashMap;
import java.util.Map;

import dev.lockstep.benchmarks.Order;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Variant F: the best exactly-once loop kafka-clients allows for this workload: one
 * transaction spans polls until it holds 10,000 records or is 100 ms old, sends stay
 * asynchronous, and the commit (which flushes) is the only wait.
 */
final class SpanningEosLoop extends ClientLoop {

	private static final int MAX_RECORDS = 10_000;

	private static final long MAX_INTERVAL_NANOS = 100_000_000L;

	private final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();

	private int records;

	private long startedNanos;

	@Override
	protected boolean transactional() {
		return true;
	}

	@Override
	protected void onPoll(ConsumerRecords<byte[], Order> polled) {
		if (!polled.isEmpty()) {
			if (this.records == 0) {
				this.producer.beginTransaction();
				this.startedNanos = System.nanoTime();
			}
			for (ConsumerRecord<byte[], Order> record : polled) {
				this.producer.send(normalized(record));
			}
			this.records += polled.count();
			this.offsets.putAll(nextOffsets(polled));
		}
		if (this.records > 0
				&& (this.records >= MAX_RECORDS || System.nanoTime() - this.startedNanos >= MAX_INTERVAL_NANOS)) {
			this.producer.sendOffsetsToTransaction(this.offsets, this.consumer.groupMetadata());
			this.producer.commitTransaction();
			this.offsets.clear();
			this.records = 0;
		}
	}

}
