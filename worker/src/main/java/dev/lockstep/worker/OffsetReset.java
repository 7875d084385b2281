package dev.lockstep.worker;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

/**
 * An operator's move of a running worker's input, as {@code kafka-consumer-groups
 * --reset-offsets} moves a stopped group's: to the first record at or after a time, to an
 * offset, or to the end, for every partition or some. Each slot applies it to the
 * partitions it owns at its next transaction boundary: what it has processed is committed
 * first, the rest of those partitions' records in hand is dropped, and the new offsets are
 * committed in a transaction of their own, so a restart resumes from them. Records read
 * again after a move back are processed again (at least once, by design of a rewind).
 *
 * @param target what the offsets move to
 * @param timestamp the time, for {@link Target#TIMESTAMP}
 * @param offset the offset, for {@link Target#OFFSET}
 * @param partitions the partitions to move; empty for every partition of the worker
 * @param requestedBy who asked, for the log
 */
public record OffsetReset(Target target, Instant timestamp, long offset, Set<TopicPartition> partitions,
		String requestedBy) {

	/** What the offsets move to. */
	public enum Target {

		/** The first record at or after a time (the end where there is none). */
		TIMESTAMP,

		/** An offset (clamped to what the partition holds). */
		OFFSET,

		/** The end: records written before are not processed. */
		END

	}

	/**
	 * Create a reset, checking its values.
	 * @param target what the offsets move to
	 * @param timestamp the time, for {@link Target#TIMESTAMP}
	 * @param offset the offset, for {@link Target#OFFSET}
	 * @param partitions the partitions to move; empty for every partition of the worker
	 * @param requestedBy who asked, for the log
	 */
	public OffsetReset {
		Objects.requireNonNull(target, "target");
		if (target == Target.TIMESTAMP) {
			Objects.requireNonNull(timestamp, "timestamp");
		}
		if (target == Target.OFFSET && offset < 0) {
			throw new IllegalArgumentException("An offset is 0 or more, not " + offset);
		}
		partitions = Set.copyOf(partitions);
		requestedBy = (requestedBy != null) ? requestedBy : "unknown";
	}

	/**
	 * Move every partition to the first record at or after a time.
	 * @param timestamp the time
	 * @return the reset
	 */
	public static OffsetReset toTimestamp(Instant timestamp) {
		return new OffsetReset(Target.TIMESTAMP, timestamp, 0, Set.of(), null);
	}

	/**
	 * Move every partition to an offset.
	 * @param offset the offset
	 * @return the reset
	 */
	public static OffsetReset toOffset(long offset) {
		return new OffsetReset(Target.OFFSET, null, offset, Set.of(), null);
	}

	/**
	 * Move every partition to its end.
	 * @return the reset
	 */
	public static OffsetReset toEnd() {
		return new OffsetReset(Target.END, null, 0, Set.of(), null);
	}

	/**
	 * Return this reset for some partitions only.
	 * @param partitions the partitions
	 * @return the reset
	 */
	public OffsetReset forPartitions(Collection<TopicPartition> partitions) {
		return new OffsetReset(this.target, this.timestamp, this.offset, Set.copyOf(partitions), this.requestedBy);
	}

	/**
	 * Return this reset, naming who asked for it.
	 * @param who the operator, as the log names them
	 * @return the reset
	 */
	public OffsetReset requestedBy(String who) {
		return new OffsetReset(this.target, this.timestamp, this.offset, this.partitions, who);
	}

	/**
	 * Return the partitions of an assignment this reset moves.
	 * @param assignment a consumer's assigned partitions
	 * @return those this reset names, or all of them when it names none
	 */
	public Set<TopicPartition> partitionsOf(Set<TopicPartition> assignment) {
		return this.partitions.isEmpty() ? Set.copyOf(assignment)
				: assignment.stream().filter(this.partitions::contains).collect(Collectors.toUnmodifiableSet());
	}

	/**
	 * Return where each partition moves, asked of the cluster through a consumer.
	 * @param consumer the consumer to ask (a slot's own)
	 * @param partitions the partitions to move
	 * @return the next offset to read of each partition
	 */
	public Map<TopicPartition, Long> offsets(Consumer<?, ?> consumer, Set<TopicPartition> partitions) {
		Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
		Map<TopicPartition, Long> offsets = new HashMap<>();
		switch (this.target) {
			case END -> offsets.putAll(ends);
			case OFFSET -> {
				Map<TopicPartition, Long> beginnings = consumer.beginningOffsets(partitions);
				partitions.forEach((partition) -> offsets.put(partition,
						Math.max(beginnings.get(partition), Math.min(this.offset, ends.get(partition)))));
			}
			case TIMESTAMP -> {
				Map<TopicPartition, Long> times = partitions.stream()
					.collect(Collectors.toMap((partition) -> partition, (partition) -> this.timestamp.toEpochMilli()));
				Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(times);
				partitions.forEach((partition) -> {
					OffsetAndTimestamp at = found.get(partition);
					offsets.put(partition, (at != null) ? at.offset() : ends.get(partition));
				});
			}
		}
		return offsets;
	}

}
