package dev.lockstep.benchmarks.throughput;

import dev.lockstep.benchmarks.Order;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * Variant D: at-least-once, the usual no-EOS loop: send the poll's outputs, flush, then
 * commit the offsets synchronously.
 */
final class AtLeastOnceLoop extends ClientLoop {

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
		this.producer.flush();
		this.consumer.commitSync(nextOffsets(records));
	}

}
