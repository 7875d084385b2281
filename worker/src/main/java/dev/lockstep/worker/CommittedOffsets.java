package dev.lockstep.worker;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The input offsets one worker's slots have committed in this process, the last for each
 * partition, whichever slot owned it: evidence that the group holds a committed offset
 * for the partition, whatever the group answers later.
 */
final class CommittedOffsets {

	private final Map<TopicPartition, Long> offsets = new ConcurrentHashMap<>();

	/**
	 * Record the offsets a slot's transaction committed.
	 * @param committed the offsets
	 */
	void committed(Map<TopicPartition, OffsetAndMetadata> committed) {
		committed.forEach((partition, offset) -> this.offsets.put(partition, offset.offset()));
	}

	/**
	 * Return the last offset a slot of this process committed for a partition.
	 * @param partition the partition
	 * @return the offset, or {@code null} when none committed it
	 */
	Long lastCommitted(TopicPartition partition) {
		return this.offsets.get(partition);
	}

}
