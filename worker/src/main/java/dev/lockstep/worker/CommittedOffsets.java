package dev.lockstep.worker;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The input offsets one worker's slots have committed in this process, the highest for
 * each partition, whichever slot owned it: the group's committed offset for the partition
 * is at least that, whatever the group answers later ({@link PartitionStarts}).
 */
final class CommittedOffsets {

	private final Map<TopicPartition, Long> offsets = new ConcurrentHashMap<>();

	/**
	 * Record the offsets a slot's transaction committed. The highest is kept: a slot told
	 * late of its commit must not lower what another slot committed since.
	 * @param committed the offsets
	 */
	void committed(Map<TopicPartition, OffsetAndMetadata> committed) {
		committed.forEach((partition, offset) -> this.offsets.merge(partition, offset.offset(), Math::max));
	}

	/**
	 * Return the highest offset a slot of this process committed for a partition.
	 * @param partition the partition
	 * @return the offset, or {@code null} when none committed it
	 */
	Long lastCommitted(TopicPartition partition) {
		return this.offsets.get(partition);
	}

}
