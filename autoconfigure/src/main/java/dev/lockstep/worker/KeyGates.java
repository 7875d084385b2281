package dev.lockstep.worker;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;

/**
 * One record per key at a time, in offset order: a record whose key (within its
 * partition) has a record running waits behind the last of that key, and starts when its
 * predecessor is done. Called by the slot thread to admit and by pool threads on
 * completion, under one lock.
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
	 * Admit a record: whether it may start now, or waits behind its key.
	 * @param record the record, with a key
	 * @return whether it may start now
	 */
	synchronized boolean admit(InFlightRecord record) {
		InFlightRecord tail = this.tails.put(record.key, record);
		if (tail == null) {
			return true;
		}
		tail.nextOfKey = record;
		return false;
	}

	/**
	 * A record is done: return the next of its key, which may start now.
	 * @param record the record that is done
	 * @return the next record of its key, or {@code null}
	 */
	synchronized InFlightRecord done(InFlightRecord record) {
		InFlightRecord next = record.nextOfKey;
		if (next == null) {
			this.tails.remove(record.key, record);
		}
		return next;
	}

}
