package dev.lockstep.benchmarks.throughput;

import dev.lockstep.benchmarks.Order;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * Variant P: no delivery guarantee at all, asynchronous sends and asynchronous offset
 * commits: what the workload costs on this machine without any coordination.
 */
final class PipeLoop extends ClientLoop {

	@Override
	protected boolean transactional() {
		return false;
	}

	@Override
	protected void onPoll(ConsumerRecords<byte[], Order> records) {
		if (records.isEmpty()) {
			return;
		}
		for (ConsumerRecord<byte[], Order> record : records) {
			this.producer.send(normalized(record));
		}
		this.consumer.commitAsync(nextOffsets(records), null);
	}

}
