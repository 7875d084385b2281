package dev.lockstep.worker.ordering;

import java.util.ArrayDeque;
import java.util.Deque;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The records of one partition handed to the pool and not yet taken back by the slot,
 * in offset order. Only the oldest can be taken, once it is done: so outputs are sent,
 * and offsets committed, in input order whatever order the records complete in. A
 * rewind or revoke closes the window; records not yet taken are then stale: not
 * processed if they have not started, their results dropped if they have.
 */
final class PartitionInFlight {

	private final TopicPartition partition;

	// Slot thread only.
	private final Deque<InFlightRecord> records = new ArrayDeque<>();

	private volatile boolean closed;

	PartitionInFlight(TopicPartition partition) {
		this.partition = partition;
	}

	TopicPartition partition() {
		return this.partition;
	}

	boolean holds(ConsumerRecord<byte[], byte[]> record) {
		return record.partition() == this.partition.partition() && record.topic().equals(this.partition.topic());
	}

	void add(InFlightRecord record) {
		this.records.addLast(record);
	}

	/**
	 * Take the oldest record if it is done.
	 * @return the record, or {@code null} when the oldest is still running (or none is left)
	 */
	InFlightRecord takeDone() {
		InFlightRecord oldest = this.records.peekFirst();
		if (oldest == null || !oldest.done) {
			return null;
		}
		return this.records.pollFirst();
	}

	int size() {
		return this.records.size();
	}

	/**
	 * Close the window: every record in it is stale, and its result is dropped.
	 */
	void close() {
		this.closed = true;
		for (InFlightRecord record : this.records) {
			// One still running stops its own once done (RecordDispatch.finish).
			if (record.done && record.result != null) {
				record.result.trace().end();
			}
		}
		this.records.clear();
	}

	boolean isClosed() {
		return this.closed;
	}

}
