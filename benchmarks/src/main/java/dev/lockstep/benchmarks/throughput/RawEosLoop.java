package dev.lockstep.benchmarks.throughput;

import dev.lockstep.benchmarks.Order;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * Variant A: the textbook exactly-once loop, one transaction per poll (up to 500
 * records) holding the outputs and the consumed offsets.
 */
final class RawEosLoop extends ClientLoop {

	@Override
	protected boolean transactional() {
		return true;
	}

	@Override
	protected void onPoll(ConsumerRecords<byte[], Order> records) {
		if (records.isEmpty()) {
			return;
		}
		this.producer.beginTransaction();
		for (ConsumerRecord<byte[], Order> record : records) {
			this.producer.send(normalized(record));
		}
		this.producer.sendOffsetsToTransaction(nextOffsets(records), this.consumer.groupMetadata());
		this.producer.commitTransaction();
	}

}
