package dev.lockstep.worker.ordering;

import java.time.Duration;
import java.util.Collection;

import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.slot.ProcessedRecord;
import dev.lockstep.worker.slot.SlotWork;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * Processing under {@link WorkerSettings.Ordering#PARTITION}: one record at a time, on
 * the slot thread, when the slot takes it back; the next poll only once a poll's records
 * are all taken back.
 */
final class SerialProcessing implements SlotProcessing {

	private final SlotWork work;

	private final PollRest pending = new PollRest();

	SerialProcessing(SlotWork work) {
		this.work = work;
	}

	@Override
	public boolean acceptsMore() {
		return !this.pending.hasNext();
	}

	@Override
	public void add(ConsumerRecords<byte[], byte[]> records) {
		this.pending.set(records);
	}

	@Override
	public boolean hasPending() {
		return this.pending.hasNext();
	}

	@Override
	public boolean hasPending(Collection<TopicPartition> partitions) {
		return this.pending.holdsAny(partitions);
	}

	@Override
	public int awaitCompletion(Duration timeout) {
		// Nothing runs between takes: a pending record is processed when taken.
		return 0;
	}

	@Override
	public ProcessedRecord takeDone() {
		return this.pending.hasNext() ? this.work.run(this.pending.next()) : null;
	}

	@Override
	public void discard() {
		this.pending.clear();
	}

	@Override
	public void discard(Collection<TopicPartition> partitions) {
		this.pending.remove(partitions);
	}

	@Override
	public int inFlight() {
		return 0;
	}

	@Override
	public void close() {
		discard();
	}

}
