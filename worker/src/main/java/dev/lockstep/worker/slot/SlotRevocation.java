package dev.lockstep.worker.slot;

import java.util.Collection;

import org.apache.kafka.common.TopicPartition;

/**
 * What a slot does before its partitions move to another consumer, called by its
 * {@link SlotRebalanceListener} from inside the consumer's poll or close, on the slot's
 * thread (and by the slot itself as it stops).
 */
interface SlotRevocation {

	/**
	 * Take back the revoked partitions' records in flight (bounded), then commit the open
	 * transaction, which also moves the rewind points.
	 * @param revoked the partitions about to be revoked
	 * @throws Exception when the transaction cannot commit
	 */
	void commitBeforeRevoke(Collection<TopicPartition> revoked) throws Exception;

}
