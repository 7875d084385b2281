package dev.lockstep.worker;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;

import org.springframework.core.log.LogAccessor;

/**
 * Where a slot starts a partition its consumer found no position for. The consumer runs
 * with {@code auto.offset.reset=none}: starting a partition over repeats every output
 * committed for it, so the group's "no committed offset" is not taken at its word. The
 * group is asked again (a coordinator can answer wrongly right after a broker restart:
 * docs/compatibility.md), and a partition that a slot of this process has committed is
 * not started over at all ({@link CommittedOffsetMissingException}, retried like any
 * retriable failure). Only a partition nothing contradicts starts where the configured
 * {@link AutoOffsetReset} says, and so does a position out of the log's range (its records
 * are gone).
 */
final class SlotOffsetReset {

	private static final LogAccessor logger = new LogAccessor(SlotOffsetReset.class);

	private final SlotId id;

	private final String groupId;

	private final AutoOffsetReset policy;

	private final CommittedOffsets committed;

	private final Clock clock;

	SlotOffsetReset(SlotId id, WorkerSettings settings, CommittedOffsets committed, Clock clock) {
		this.id = id;
		this.groupId = settings.groupId();
		this.policy = settings.offsetReset();
		this.committed = committed;
		this.clock = clock;
	}

	/**
	 * Start partitions the group reported no committed offset for.
	 * @param consumer the slot's consumer
	 * @param failure what its poll threw
	 * @throws CommittedOffsetMissingException when this process committed one of them
	 * @throws NoOffsetForPartitionException the failure, when the policy is {@code none}
	 */
	void noCommittedOffset(Consumer<?, ?> consumer, NoOffsetForPartitionException failure) {
		Map<TopicPartition, OffsetAndMetadata> again = consumer.committed(failure.partitions());
		List<TopicPartition> missing = new ArrayList<>();
		Map<TopicPartition, Long> contradicted = new TreeMap<>(
				(a, b) -> a.toString().compareTo(b.toString()));
		for (TopicPartition partition : failure.partitions()) {
			OffsetAndMetadata offset = again.get(partition);
			Long ours = this.committed.lastCommitted(partition);
			if (offset != null) {
				consumer.seek(partition, offset);
				logger.warn(() -> this.id + " the group reported no committed offset for " + partition
						+ ", then " + offset.offset() + " when asked again: reading from there");
			}
			else if (ours != null) {
				contradicted.put(partition, ours);
			}
			else {
				missing.add(partition);
			}
		}
		if (!contradicted.isEmpty()) {
			throw new CommittedOffsetMissingException(this.groupId, contradicted);
		}
		if (missing.isEmpty()) {
			return;
		}
		if (this.policy.isNone()) {
			throw failure;
		}
		this.policy.apply(consumer, missing, this.clock);
		logger.info(() -> this.id + " no committed offset for " + missing + ": starting them at auto.offset.reset="
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

}
