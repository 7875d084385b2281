package dev.lockstep.worker.slot;

import java.util.Map;

import dev.lockstep.worker.invalid.InvalidInputHandler;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A slot's commit: the open transaction committed with the consumer's group metadata
 * (which fences a zombie consumer), then every part that keeps track of what is committed
 * told: the processing, the rewind points, a pending skip, health and the back-off.
 */
final class SlotCommit {

	private final SlotTransaction transaction;

	private final SlotConsumers consumers;

	private final SlotWork work;

	private final RewindPoints rewindPoints;

	private final InvalidInputHandler invalidInput;

	private final SlotMonitor monitor;

	private final BackOff backOff;

	SlotCommit(SlotTransaction transaction, SlotConsumers consumers, SlotWork work, RewindPoints rewindPoints,
			InvalidInputHandler invalidInput, SlotMonitor monitor, BackOff backOff) {
		this.transaction = transaction;
		this.consumers = consumers;
		this.work = work;
		this.rewindPoints = rewindPoints;
		this.invalidInput = invalidInput;
		this.monitor = monitor;
		this.backOff = backOff;
	}

	/**
	 * Commit the open transaction.
	 * @throws Exception when it cannot commit
	 */
	void commit() throws Exception {
		Map<TopicPartition, OffsetAndMetadata> offsets = this.transaction
			.commit(this.consumers.current().groupMetadata());
		this.work.transactionEnded();
		this.rewindPoints.committed(offsets);
		this.invalidInput.committed(offsets);
		this.monitor.committedOffsets(this.rewindPoints.points());
		this.backOff.reset();
	}

	/**
	 * Commit the open transaction, if one is open.
	 * @throws Exception when it cannot commit
	 */
	void commitIfOpen() throws Exception {
		if (this.transaction.isOpen()) {
			commit();
		}
	}

}
