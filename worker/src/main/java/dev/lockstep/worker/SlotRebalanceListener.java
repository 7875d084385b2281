package dev.lockstep.worker;

import java.time.Duration;
import java.util.Collection;
import java.util.function.Supplier;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;

import org.springframework.core.log.LogAccessor;

/**
 * Before partitions move to another consumer, the open transaction is committed (or
 * aborted and the rest rewound), so the new owner starts exactly where this slot's output
 * ends. A failure that ends the slot is kept for the loop to throw after the poll:
 * thrown here, it would reach the loop wrapped by the consumer.
 */
final class SlotRebalanceListener implements ConsumerRebalanceListener {

	private static final LogAccessor logger = new LogAccessor(SlotRebalanceListener.class);

	private static final Duration POSITION_TIMEOUT = Duration.ofSeconds(1);

	/**
	 * The slot's commit before revocation: the revoked partitions' records in flight taken
	 * back (bounded), then the open transaction committed, which also moves the rewind
	 * points.
	 */
	@FunctionalInterface
	interface Commit {

		void commit(Collection<TopicPartition> revoked) throws Exception;

	}

	private final SlotId id;

	private final SlotTransaction transaction;

	private final Commit commit;

	private final Runnable rewind;

	// Drops the records in flight of partitions the slot no longer owns.
	private final java.util.function.Consumer<Collection<TopicPartition>> discard;

	private final RewindPoints rewindPoints;

	private final SlotMonitor monitor;

	private final Supplier<Consumer<byte[], byte[]>> consumer;

	private SlotFailure failure;

	private boolean paused;

	SlotRebalanceListener(SlotId id, SlotTransaction transaction, Commit commit, Runnable rewind,
			java.util.function.Consumer<Collection<TopicPartition>> discard, RewindPoints rewindPoints,
			SlotMonitor monitor, Supplier<Consumer<byte[], byte[]>> consumer) {
		this.id = id;
		this.transaction = transaction;
		this.commit = commit;
		this.rewind = rewind;
		this.discard = discard;
		this.rewindPoints = rewindPoints;
		this.monitor = monitor;
		this.consumer = consumer;
	}

	/**
	 * Whether newly assigned partitions start paused (an operator paused the slot).
	 * @param paused whether the slot is paused
	 */
	void paused(boolean paused) {
		this.paused = paused;
	}

	/**
	 * Throw the failure that ended the slot during the last rebalance, if any.
	 */
	void throwFailure() {
		SlotFailure kept = this.failure;
		if (kept != null) {
			this.failure = null;
			throw kept;
		}
	}

	@Override
	public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
		try {
			this.commit.commit(partitions);
		}
		catch (SlotFailure ex) {
			this.failure = ex;
		}
		catch (Exception ex) {
			this.monitor.error("Commit before revocation failed: " + ex);
			abort();
			this.rewind.run();
		}
		finally {
			forget(partitions);
		}
	}

	@Override
	public void onPartitionsLost(Collection<TopicPartition> partitions) {
		try {
			abort();
		}
		finally {
			forget(partitions);
		}
	}

	@Override
	public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
		Consumer<byte[], byte[]> assigned = this.consumer.get();
		for (TopicPartition partition : partitions) {
			try {
				// Bounded: a transaction may be open across a cooperative rebalance.
				this.rewindPoints.assigned(partition, assigned.position(partition, POSITION_TIMEOUT));
			}
			catch (RuntimeException ex) {
				// The partition's first poll sets its rewind point instead.
				this.rewindPoints.forget(partition);
				logger.debug(() -> this.id + " no position yet for " + partition + ": " + ex);
			}
		}
		this.monitor.committedOffsets(this.rewindPoints.points());
		if (this.paused) {
			assigned.pause(partitions);
		}
	}

	private void abort() {
		try {
			this.transaction.abort();
		}
		catch (SlotFailure ex) {
			this.failure = ex;
		}
	}

	private void forget(Collection<TopicPartition> partitions) {
		this.discard.accept(partitions);
		this.rewindPoints.revoked(partitions);
		this.monitor.committedOffsets(this.rewindPoints.points());
	}

}
