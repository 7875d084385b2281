package dev.lockstep.worker.ordering;

import dev.lockstep.worker.slot.ProcessedRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One record handed to a slot's pool: its partition's window, its place in its key's
 * chain, and once done what it produced. The pool thread writes the result before
 * {@link #done}; the slot thread reads it after.
 */
final class InFlightRecord {

	final ConsumerRecord<byte[], byte[]> raw;

	final PartitionInFlight window;

	// The key it waits behind (KEY ordering), or null.
	final KeyGates.Key key;

	final long queuedNanos;

	// The next record of the same key, run when this one is done (guarded by KeyGates).
	InFlightRecord nextOfKey;

	// Written before done; null when the record was stale.
	ProcessedRecord result;

	volatile boolean done;

	InFlightRecord(ConsumerRecord<byte[], byte[]> raw, PartitionInFlight window, KeyGates.Key key) {
		this.raw = raw;
		this.window = window;
		this.key = key;
		this.queuedNanos = System.nanoTime();
	}

	/**
	 * Return whether its work is no longer wanted: its partition was rewound or revoked.
	 * @return whether it is stale
	 */
	boolean isStale() {
		return this.window.isClosed();
	}

}
