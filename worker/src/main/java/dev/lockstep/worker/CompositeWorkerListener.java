package dev.lockstep.worker;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;

/**
 * Forwards every event to several listeners, in order.
 */
public class CompositeWorkerListener implements WorkerListener {

	private final List<WorkerListener> listeners;

	/**
	 * Create a composite.
	 * @param listeners the listeners
	 */
	public CompositeWorkerListener(List<WorkerListener> listeners) {
		this.listeners = List.copyOf(listeners);
	}

	@Override
	public void workerCreated(String worker) {
		this.listeners.forEach((listener) -> listener.workerCreated(worker));
	}

	@Override
	public void consumerCreated(String worker, int slot, Consumer<?, ?> consumer) {
		this.listeners.forEach((listener) -> listener.consumerCreated(worker, slot, consumer));
	}

	@Override
	public void consumerClosing(String worker, int slot, Consumer<?, ?> consumer) {
		this.listeners.forEach((listener) -> listener.consumerClosing(worker, slot, consumer));
	}

	@Override
	public void producerCreated(String worker, int slot, Producer<?, ?> producer) {
		this.listeners.forEach((listener) -> listener.producerCreated(worker, slot, producer));
	}

	@Override
	public void producerClosing(String worker, int slot, Producer<?, ?> producer) {
		this.listeners.forEach((listener) -> listener.producerClosing(worker, slot, producer));
	}

	@Override
	public void polled(String worker, int slot, int records, Map<TopicPartition, Long> lag) {
		this.listeners.forEach((listener) -> listener.polled(worker, slot, records, lag));
	}

	@Override
	public void partitionsRevoked(String worker, int slot, Collection<TopicPartition> partitions) {
		this.listeners.forEach((listener) -> listener.partitionsRevoked(worker, slot, partitions));
	}

	@Override
	public void concurrentSlotCreated(String worker, int slot, IntSupplier inFlight) {
		this.listeners.forEach((listener) -> listener.concurrentSlotCreated(worker, slot, inFlight));
	}

	// Once per record: no capturing lambda.
	@Override
	public void recordWaited(String worker, int slot, long waitedNanos) {
		for (WorkerListener listener : this.listeners) {
			listener.recordWaited(worker, slot, waitedNanos);
		}
	}

	@Override
	public void recordProcessed(String worker, int slot, long processingNanos) {
		for (WorkerListener listener : this.listeners) {
			listener.recordProcessed(worker, slot, processingNanos);
		}
	}

	@Override
	public void committed(String worker, int slot, CommitOutcome outcome) {
		this.listeners.forEach((listener) -> listener.committed(worker, slot, outcome));
	}

	@Override
	public void aborted(String worker, int slot, int records) {
		this.listeners.forEach((listener) -> listener.aborted(worker, slot, records));
	}

	@Override
	public void recovered(String worker, int slot, FailureCategory category) {
		this.listeners.forEach((listener) -> listener.recovered(worker, slot, category));
	}

	@Override
	public void rejected(String worker, int slot, SlotState.BlockedRecord record) {
		this.listeners.forEach((listener) -> listener.rejected(worker, slot, record));
	}

	@Override
	public void offsetsReset(String worker, int slot, OffsetReset reset, Map<TopicPartition, Long> moved) {
		this.listeners.forEach((listener) -> listener.offsetsReset(worker, slot, reset, moved));
	}

}
