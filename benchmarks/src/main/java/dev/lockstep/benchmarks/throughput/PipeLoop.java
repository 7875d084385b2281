package dev.lockstep.benchmarks.throughput;

import java.util.HashMap;
import java.util.Map;

import dev.lockstep.benchmarks.Order;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Variant P: no delivery guarantee at all, asynchronous sends and asynchronous offset
 * commits every 100 ms (the cadence of the other variants' commits): what the workload
 * costs on this machine without any coordination.
 */
final class PipeLoop extends ClientLoop {

	private static final long COMMIT_INTERVAL_NANOS = 100_000_000L;

	private final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();

	private long lastCommitNanos = System.nanoTime();

	@Override
	protected boolean transactional() {
		return false;
	}

	@Override
	protected void onPoll(ConsumerRecords<byte[], Order> records) {
		for (ConsumerRecord<byte[], Order> record : records) {
			this.producer.send(normalized(record));
		}
		this.offsets.putAll(nextOffsets(records));
		if (!this.offsets.isEmpty() && System.nanoTime() - this.lastCommitNanos >= COMMIT_INTERVAL_NANOS) {
			this.consumer.commitAsync(new HashMap<>(this.offsets), null);
			this.offsets.clear();
			this.lastCommitNanos = System.nanoTime();
		}
	}

}
