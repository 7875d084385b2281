package dev.lockstep.worker;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;

import org.springframework.core.log.LogAccessor;

/**
 * Where a slot reads each partition from when the group's answer decides it. An input
 * offset the worker committed in this process ({@link CommittedOffsets}) is a floor: the
 * group's committed offsets only move forward, so an answer below it (or no answer) is
 * wrong, as a Kafka 4.4 coordinator's was right after a broker restart
 * (docs/compatibility.md), and reading from it would repeat committed output. The slot
 * reads from the floor instead, or from the group's offset when asked again if that is
 * higher, and says so. The consumer runs with {@code auto.offset.reset=none}: only a
 * partition without a floor, for which the group still has no offset when asked again,
 * starts where the configured {@link AutoOffsetReset} says, and so does a position out of
 * the log's range (its records deleted).
 */
final class PartitionStarts {

	private static final LogAccessor logger = new LogAccessor(PartitionStarts.class);

	private final SlotId id;

	private final String groupId;

	private final AutoOffsetReset policy;

	private final CommittedOffsets committed;

	private final RewindPoints rewindPoints;

	private final SlotMonitor monitor;

	private final Clock clock;

	PartitionStarts(SlotId id, WorkerSettings settings, CommittedOffsets committed, RewindPoints rewindPoints,
			SlotMonitor monitor, Clock clock) {
		this.id = id;
		this.groupId = settings.groupId();
		this.policy = settings.offsetReset();
		this.committed = committed;
		this.rewindPoints = rewindPoints;
		this.monitor = monitor;
		this.clock = clock;
	}

	/**
	 * Drop the records of every partition a poll returned from below its floor, and read
	 * those partitions on from the floor (or the group's higher offset).
	 * @param consumer the slot's consumer
	 * @param records what its poll returned
	 * @return the records at or above their floors
	 */
	ConsumerRecords<byte[], byte[]> atOrAboveFloors(Consumer<?, ?> consumer, ConsumerRecords<byte[], byte[]> records) {
		Map<TopicPartition, Long> below = new HashMap<>();
		for (TopicPartition partition : records.partitions()) {
			Long floor = this.committed.lastCommitted(partition);
			if (floor != null && records.records(partition).get(0).offset() < floor) {
				below.put(partition, records.records(partition).get(0).offset());
			}
		}
		if (below.isEmpty()) {
			return records;
		}
		// Sought first: whatever happens next, no record below a floor is read again.
		below.keySet().forEach((partition) -> consumer.seek(partition, this.committed.lastCommitted(partition)));
		Map<TopicPartition, OffsetAndMetadata> again = consumer.committed(below.keySet());
		below.forEach((partition, answered) -> readFromFloor(consumer, partition, answered, again.get(partition)));
		Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> kept = new HashMap<>();
		Map<TopicPartition, OffsetAndMetadata> nextOffsets = new HashMap<>(records.nextOffsets());
		for (TopicPartition partition : records.partitions()) {
			if (!below.containsKey(partition)) {
				kept.put(partition, records.records(partition));
			}
		}
		nextOffsets.keySet().removeAll(below.keySet());
		return new ConsumerRecords<>(kept, nextOffsets);
	}

	/**
	 * Start partitions the group reported no committed offset for.
	 * @param consumer the slot's consumer
	 * @param failure what its poll threw
	 * @throws NoOffsetForPartitionException the failure, when the policy is {@code none}
	 * and a partition has neither an offset nor a floor
	 */
	void noCommittedOffset(Consumer<?, ?> consumer, NoOffsetForPartitionException failure) {
		Set<TopicPartition> partitions = failure.partitions();
		Map<TopicPartition, OffsetAndMetadata> again = consumer.committed(partitions);
		List<TopicPartition> fresh = new ArrayList<>();
		for (TopicPartition partition : partitions) {
			OffsetAndMetadata answer = again.get(partition);
			Long floor = this.committed.lastCommitted(partition);
			if (floor != null) {
				consumer.seek(partition, floor);
				readFromFloor(consumer, partition, null, answer);
			}
			else if (answer != null) {
				consumer.seek(partition, answer);
				logger.warn(() -> this.id + " the group reported no committed offset for " + partition + ", then "
						+ answer.offset() + " when asked again: reading from there");
			}
			else {
				fresh.add(partition);
			}
		}
		if (fresh.isEmpty()) {
			return;
		}
		if (this.policy.isNone()) {
			throw failure;
		}
		this.policy.apply(consumer, fresh, this.clock);
		logger.info(() -> this.id + " no committed offset for " + fresh + ": starting them at auto.offset.reset="
				+ this.policy);
	}

	/**
	 * Start partitions whose position is out of the log's range (their records deleted).
	 * @param consumer the slot's consumer
	 * @param failure what its poll threw
	 * @throws OffsetOutOfRangeException the failure, when the policy is {@code none}
	 */
	void outOfRange(Consumer<?, ?> consumer, OffsetOutOfRangeException failure) {
		if (this.policy.isNone()) {
			throw failure;
		}
		this.policy.apply(consumer, failure.offsetOutOfRangePartitions().keySet(), this.clock);
		logger.warn(() -> this.id + " positions out of range " + failure.offsetOutOfRangePartitions()
				+ ": starting them at auto.offset.reset=" + this.policy);
	}

	/**
	 * Report a partition sought to its floor, and read from the group's offset instead
	 * when asking again returned a higher one (another instance committed on since).
	 */
	private void readFromFloor(Consumer<?, ?> consumer, TopicPartition partition, Long answered,
			OffsetAndMetadata again) {
		long floor = this.committed.lastCommitted(partition);
		long from = floor;
		if (again != null && again.offset() > floor) {
			consumer.seek(partition, again);
			from = again.offset();
		}
		// The point the assignment set from the group's answer would rewind below the floor.
		this.rewindPoints.assigned(partition, from);
		String message = "group '" + this.groupId + "' answered "
				+ ((answered != null) ? "offset " + answered : "no committed offset") + " for " + partition
				+ ", below the offset " + floor + " this process committed for it: reading from " + from;
		this.monitor.error(message);
		logger.warn(() -> this.id + " " + message);
	}

}
