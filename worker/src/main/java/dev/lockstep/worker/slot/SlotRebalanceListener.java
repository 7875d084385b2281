package dev.lockstep.worker.slot;

import java.time.Duration;
import java.util.Collection;

import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.ordering.SlotProcessing;
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

	private final SlotId id;

	private final SlotRevocation revocation;

	private final SlotTransaction transaction;

	private final SlotRecovery recovery;

	private final SlotProcessing processing;

	private final RewindPoints rewindPoints;

	private final SlotRetries retries;

	private final SlotMonitor monitor;

	private final SlotConsumers consumers;

	private final WorkerListener listener;

	private SlotFailure failure;

	private boolean paused;

	SlotRebalanceListener(SlotId id, SlotRevocation revocation, SlotTransaction transaction, SlotRecovery recovery,
			SlotProcessing processing, RewindPoints rewindPoints, SlotRetries retries, SlotMonitor monitor,
			SlotConsumers consumers, WorkerListener listener) {
		this.id = id;
		this.revocation = revocation;
		this.transaction = transaction;
		this.recovery = recovery;
		this.processing = processing;
		this.rewindPoints = rewindPoints;
		this.retries = retries;
		this.monitor = monitor;
		this.consumers = consumers;
		this.listener = listener;
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
			this.revocation.commitBeforeRevoke(partitions);
		}
		catch (SlotFailure ex) {
			this.failure = ex;
		}
		catch (Exception ex) {
			this.monitor.error("Commit before revocation failed: " + ex);
			abort();
			this.recovery.rewind();
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
		Consumer<byte[], byte[]> assigned = this.consumers.current();
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
		this.monitor.joinedGroup();
		if (this.paused) {
			assigned.pause(partitions);
		}
		this.retries.assigned(partitions, assigned);
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
		// Records in flight of partitions the slot no longer owns are dropped.
		this.processing.discard(partitions);
		this.rewindPoints.revoked(partitions);
		this.monitor.committedOffsets(this.rewindPoints.points());
		try {
			this.listener.partitionsRevoked(this.id.worker(), this.id.index(), partitions);
		}
		catch (RuntimeException ex) {
			// Thrown here, it would reach the slot's loop as the rebalance's failure.
			logger.warn(ex, () -> this.id + " listener failed on revoked partitions");
		}
	}

}
