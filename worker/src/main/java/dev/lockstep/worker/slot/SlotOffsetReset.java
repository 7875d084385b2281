package dev.lockstep.worker.slot;

import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

import dev.lockstep.worker.OffsetReset;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.ordering.SlotProcessing;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

import org.springframework.core.log.LogAccessor;

/**
 * A slot's part in an operator's {@link OffsetReset}: asked from any thread, applied on the
 * slot's thread between rounds to the partitions it owns. What is done is committed first
 * (as before a revocation), the rest of their records in hand dropped, the consumer moved,
 * and the new offsets committed in a transaction of their own.
 */
final class SlotOffsetReset {

	private static final LogAccessor logger = new LogAccessor(SlotOffsetReset.class);

	private final SlotId id;

	private final SlotConsumers consumers;

	private final SlotRevocation revocation;

	private final SlotProcessing processing;

	private final RewindPoints rewindPoints;

	private final SlotRetries retries;

	private final SlotTransaction transaction;

	private final SlotCommit commit;

	private final WorkerListener listener;

	private final AtomicReference<OffsetReset> requested = new AtomicReference<>();

	SlotOffsetReset(SlotId id, SlotConsumers consumers, SlotRevocation revocation, SlotProcessing processing,
			RewindPoints rewindPoints, SlotRetries retries, SlotTransaction transaction, SlotCommit commit,
			WorkerListener listener) {
		this.id = id;
		this.consumers = consumers;
		this.revocation = revocation;
		this.processing = processing;
		this.rewindPoints = rewindPoints;
		this.retries = retries;
		this.transaction = transaction;
		this.commit = commit;
		this.listener = listener;
	}

	/**
	 * Ask for a reset; one not applied yet is replaced.
	 * @param reset the reset
	 */
	void request(OffsetReset reset) {
		this.requested.set(reset);
	}

	/**
	 * Apply the reset asked for, if any, on the slot's thread.
	 * @throws Exception when committing or asking the cluster fails (the reset is then
	 * asked again, unless a newer one came)
	 */
	void apply() throws Exception {
		OffsetReset reset = this.requested.getAndSet(null);
		if (reset == null) {
			return;
		}
		Consumer<byte[], byte[]> consumer = this.consumers.current();
		Set<TopicPartition> partitions = reset.partitionsOf(consumer.assignment());
		if (partitions.isEmpty()) {
			logger.info(() -> this.id + " owns none of the partitions " + reset.requestedBy() + " reset");
			return;
		}
		Map<TopicPartition, Long> from = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
		Map<TopicPartition, Long> to;
		try {
			this.revocation.commitBeforeRevoke(partitions);
			partitions.forEach((partition) -> from.put(partition, consumer.position(partition)));
			to = reset.offsets(consumer, partitions);
		}
		catch (Exception ex) {
			this.requested.compareAndSet(null, reset);
			throw ex;
		}
		this.processing.discard(partitions);
		// A record waiting for its next attempt is one the operator moved past or back to.
		this.retries.moved(partitions);
		to.forEach((partition, offset) -> {
			consumer.seek(partition, offset);
			this.rewindPoints.assigned(partition, offset);
		});
		this.transaction.moveOffsets(to);
		this.commit.commit();
		try {
			this.listener.offsetsReset(this.id.worker(), this.id.index(), reset, Map.copyOf(to));
		}
		catch (RuntimeException ex) {
			logger.warn(ex, () -> this.id + " listener failed on an offset reset");
		}
		logger.warn(() -> this.id + " offsets reset to " + reset.target() + " by " + reset.requestedBy() + ": "
				+ from.entrySet()
					.stream()
					.map((moved) -> moved.getKey() + " " + moved.getValue() + " -> " + to.get(moved.getKey()))
					.toList());
	}

}
