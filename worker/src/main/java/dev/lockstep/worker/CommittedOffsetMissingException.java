package dev.lockstep.worker;

import java.util.Map;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;

/**
 * The group reported no committed offset for partitions a slot of this process has
 * committed: starting them over would repeat committed output, so the slot keeps asking
 * (a retriable failure: it stalls, visibly, until the group answers with an offset).
 */
final class CommittedOffsetMissingException extends RetriableException {

	private static final long serialVersionUID = 1L;

	CommittedOffsetMissingException(String groupId, Map<TopicPartition, Long> committed) {
		super("Group '" + groupId + "' reported no committed offset for " + committed.keySet()
				+ ", though this process committed " + committed
				+ " in it: not starting them over at auto.offset.reset (that would repeat committed output);"
				+ " asking the group again. If the group's offsets were deleted on purpose, set them with"
				+ " kafka-consumer-groups.sh --reset-offsets");
	}

}
