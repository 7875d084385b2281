package dev.lockstep.worker.slot;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Where each assigned partition's uncommitted input begins: the offset a rewind seeks
 * to. A consumer's position only moves by returning records, and every partition of
 * every poll gets its point before any of its records is processed (its first offset,
 * unless a commit or the assignment set one already), so no path can rewind past a
 * record whose output was not committed.
 */
final class RewindPoints {

	private final Map<TopicPartition, Long> points = new HashMap<>();

	// The offset after the last record each partition returned: how far its input was read.
	private final Map<TopicPartition, Long> readUpTo = new HashMap<>();

	/**
	 * Record where each partition of a poll begins, for partitions without a point, and
	 * how far each was read.
	 * @param records the records a poll returned
	 */
	void polled(ConsumerRecords<?, ?> records) {
		for (TopicPartition partition : records.partitions()) {
			List<? extends ConsumerRecord<?, ?>> returned = records.records(partition);
			if (!this.points.containsKey(partition)) {
				this.points.put(partition, returned.get(0).offset());
			}
			this.readUpTo.put(partition, returned.get(returned.size() - 1).offset() + 1);
		}
	}

	/**
	 * Return how many offsets of a partition were read and not committed yet (commit
	 * markers between its records included): the records a rewind would read again.
	 * @param partition the partition
	 * @return the offsets from its point to the last record read, 0 when none
	 */
	long readUncommitted(TopicPartition partition) {
		Long point = this.points.get(partition);
		Long read = this.readUpTo.get(partition);
		return (point != null && read != null) ? Math.max(0, read - point) : 0;
	}

	/**
	 * Move the points of committed partitions to their committed offsets.
	 * @param offsets the offsets a transaction committed
	 */
	void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
		offsets.forEach((partition, offset) -> this.points.put(partition, offset.offset()));
	}

	/**
	 * Set a newly assigned partition's point to where the consumer will read it from.
	 * @param partition the partition
	 * @param position its position
	 */
	void assigned(TopicPartition partition, long position) {
		this.points.put(partition, position);
		this.readUpTo.remove(partition);
	}

	/**
	 * Set the points of the assigned partitions to the offsets the group has committed,
	 * as the broker has them once any pending transaction is resolved.
	 * @param consumer the consumer (read_committed)
	 */
	void reload(Consumer<?, ?> consumer) {
		consumer.committed(consumer.assignment()).forEach((partition, offset) -> {
			if (offset != null) {
				this.points.put(partition, offset.offset());
			}
		});
	}

	/**
	 * A partition is read again from an offset on (sought back to a record to retry).
	 * @param partition the partition
	 * @param offset the next offset read
	 */
	void readUpTo(TopicPartition partition, long offset) {
		this.readUpTo.computeIfPresent(partition, (key, read) -> Math.min(read, offset));
	}

	void forget(TopicPartition partition) {
		this.points.remove(partition);
		this.readUpTo.remove(partition);
	}

	void revoked(Collection<TopicPartition> partitions) {
		partitions.forEach(this::forget);
	}

	/**
	 * Seek every assigned partition that has a point back to it. A partition without
	 * one has returned no record since its assignment, so its position has not moved.
	 * @param consumer the consumer
	 */
	void rewind(Consumer<?, ?> consumer) {
		for (TopicPartition partition : consumer.assignment()) {
			Long point = this.points.get(partition);
			if (point != null) {
				consumer.seek(partition, point);
				this.readUpTo.remove(partition);
			}
		}
	}

	Map<TopicPartition, Long> points() {
		return this.points;
	}

}
