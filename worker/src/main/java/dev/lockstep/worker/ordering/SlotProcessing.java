package dev.lockstep.worker.ordering;

import java.time.Duration;
import java.util.Collection;

import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.slot.ProcessedRecord;
import dev.lockstep.worker.slot.SlotId;
import dev.lockstep.worker.slot.SlotWork;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * The records a slot has polled and not yet taken back into its transaction, processed
 * as the worker's {@link WorkerSettings.Ordering} allows and taken back per partition in
 * offset order: one at a time on the slot thread ({@link SerialProcessing}), or at the
 * same time on a pool the slot owns ({@link ConcurrentProcessing}). Called by the slot
 * thread only.
 */
public interface SlotProcessing extends AutoCloseable {

	/**
	 * Return the processing for a worker's ordering.
	 * @param id the slot
	 * @param settings the worker's settings
	 * @param work the user's processor, as the slot runs it on one record
	 * @param listener told of every record processed at the same time as others
	 * @return serial processing under PARTITION ordering, concurrent processing otherwise
	 */
	static SlotProcessing of(SlotId id, WorkerSettings settings, SlotWork work, WorkerListener listener) {
		return (settings.ordering() == WorkerSettings.Ordering.PARTITION) ? new SerialProcessing(work)
				: new ConcurrentProcessing(id, settings, work, listener);
	}

	/**
	 * Return whether the slot may poll for more records.
	 * @return whether more records are welcome
	 */
	boolean acceptsMore();

	/**
	 * Take what a poll returned for processing.
	 * @param records the records
	 */
	void add(ConsumerRecords<byte[], byte[]> records);

	/**
	 * Return whether any record is pending: to be processed, processing, or done and not
	 * yet taken back.
	 * @return whether records are pending
	 */
	boolean hasPending();

	/**
	 * Return whether any record of the given partitions is pending.
	 * @param partitions the partitions
	 * @return whether records of the partitions are pending
	 */
	boolean hasPending(Collection<TopicPartition> partitions);

	/**
	 * Wait until a record completes, at most the given time.
	 * @param timeout the longest wait
	 * @return how many records completed since the last call
	 */
	int awaitCompletion(Duration timeout);

	/**
	 * Take back the next record that is done and whose partition's earlier records are all
	 * taken back.
	 * @return the record, or {@code null} when none is ready
	 */
	ProcessedRecord takeDone();

	/**
	 * Drop every record not yet taken back: the slot rewound.
	 */
	void discard();

	/**
	 * Drop the records of partitions the slot no longer owns.
	 * @param partitions the partitions
	 */
	void discard(Collection<TopicPartition> partitions);

	/**
	 * Return the records polled and not yet taken back that are processed at the same
	 * time as others; readable from any thread.
	 * @return the records in flight, always 0 under PARTITION ordering
	 */
	int inFlight();

	/**
	 * Release what the processing holds; pending records are dropped.
	 */
	@Override
	void close();

}
