package dev.lockstep.worker.ordering;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;

/**
 * One record per key at a time, in offset order: a record whose key (within its
 * partition) has a record running waits behind the last of that key, and starts when its
 * predecessor is done. Called by the slot thread to admit a poll's records and by pool
 * threads when a batch is done: one lock for many records.
 */
final class KeyGates {

	/**
	 * A key as the bytes consumed, within its partition.
	 *
	 * @param partition the partition
	 * @param bytes the serialised key
	 */
	record Key(TopicPartition partition, ByteBuffer bytes) {

		static Key of(TopicPartition partition, byte[] key) {
			return (key != null) ? new Key(partition, ByteBuffer.wrap(key)) : null;
		}

	}

	// The last admitted record of each key with a record running.
	private final Map<Key, InFlightRecord> tails = new HashMap<>();

	/**
	 * Admit records, in offset order: those without a key or whose key has no record
	 * running may start now; the others wait behind the last of their key.
	 * @param records the records
	 * @return those that may start now, in order
	 */
	synchronized List<InFlightRecord> admit(List<InFlightRecord> records) {
		List<InFlightRecord> startable = new ArrayList<>(records.size());
		for (InFlightRecord record : records) {
			if (record.key == null) {
				startable.add(record);
				continue;
			}
			InFlightRecord tail = this.tails.put(record.key, record);
			if (tail == null) {
				startable.add(record);
			}
			else {
				tail.nextOfKey = record;
			}
		}
		return startable;
	}

	/**
	 * A record is done: return the next record of its key, which may start now.
	 * @param record the record that is done
	 * @return the record to start, or {@code null}
	 */
	synchronized InFlightRecord done(InFlightRecord record) {
		return nextOf(record);
	}

	/**
	 * Records are done: return the next record of each of their keys, which may start now.
	 * @param records the records that are done
	 * @return the records to start, in order
	 */
	synchronized List<InFlightRecord> done(InFlightRecord[] records) {
		List<InFlightRecord> next = new ArrayList<>();
		for (InFlightRecord record : records) {
			InFlightRecord following = nextOf(record);
			if (following != null) {
				next.add(following);
			}
		}
		return next;
	}

	// The record's key is free unless another record waits behind it.
	private InFlightRecord nextOf(InFlightRecord record) {
		if (record.nextOfKey == null && record.key != null) {
			this.tails.remove(record.key, record);
		}
		return record.nextOfKey;
	}

}
