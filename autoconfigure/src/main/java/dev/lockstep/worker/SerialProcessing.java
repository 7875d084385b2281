package dev.lockstep.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * Processing under {@link WorkerSettings.Ordering#PARTITION}: one record at a time, on
 * the slot thread, when the slot takes it back; the next poll only once a poll's records
 * are all taken back.
 */
final class SerialProcessing implements SlotProcessing {

	private final SlotWork work;

	private Iterator<ConsumerRecord<byte[], byte[]>> pending = Collections.emptyIterator();

	SerialProcessing(SlotWork work) {
		this.work = work;
	}

	@Override
	public boolean acceptsMore() {
		return !this.pending.hasNext();
	}

	@Override
	public void add(ConsumerRecords<byte[], byte[]> records) {
		this.pending = records.iterator();
	}

	@Override
	public boolean hasPending() {
		return this.pending.hasNext();
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
		this.pending = Collections.emptyIterator();
	}

	@Override
	public void discard(Collection<TopicPartition> partitions) {
		List<ConsumerRecord<byte[], byte[]>> kept = new ArrayList<>();
		this.pending.forEachRemaining((record) -> {
			if (!partitions.contains(new TopicPartition(record.topic(), record.partition()))) {
				kept.add(record);
			}
		});
		this.pending = kept.iterator();
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
