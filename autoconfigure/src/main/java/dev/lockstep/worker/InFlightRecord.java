package dev.lockstep.worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One record handed to a slot's pool: its partition's window, its place in its key's
 * chain, and once done what it produced. The pool thread writes the result before
 * {@link #done}; the slot thread reads it after.
 */
final class InFlightRecord {

	private static final VarHandle RELEASED;

	static {
		try {
			RELEASED = MethodHandles.lookup().findVarHandle(InFlightRecord.class, "released", boolean.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	final ConsumerRecord<byte[], byte[]> raw;

	final PartitionInFlight window;

	// The key it waits behind (KEY ordering), or null.
	final KeyGates.Key key;

	final long queuedNanos;

	// The next record of the same key, started when this one is done (guarded by KeyGates).
	InFlightRecord nextOfKey;

	long startedNanos;

	long doneNanos;

	boolean tombstone;

	List<ProducerRecord<byte[], byte[]>> outputs;

	Exception failure;

	volatile boolean done;

	// Whether its place in the slot's max-in-flight was given back; exactly once.
	@SuppressWarnings("unused")
	private volatile boolean released;

	InFlightRecord(ConsumerRecord<byte[], byte[]> raw, PartitionInFlight window, KeyGates.Key key) {
		this.raw = raw;
		this.window = window;
		this.key = key;
		this.queuedNanos = System.nanoTime();
	}

	/**
	 * Mark the place as given back.
	 * @return whether this call gave it back (false when it already was)
	 */
	boolean release() {
		return RELEASED.compareAndSet(this, false, true);
	}

	/**
	 * Return whether its work is no longer wanted: its partition was rewound or revoked.
	 * @return whether it is stale
	 */
	boolean isStale() {
		return this.window.isClosed();
	}

}
