package dev.lockstep.worker;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

import org.springframework.core.log.LogAccessor;

/**
 * A slot's polls and what each one tells: the rewind point of every partition it read,
 * the input deadline of a one-shot run (shared by the worker's slots), a quiet slot, and the lag of every assigned
 * partition (read on every poll: an empty poll is what moves past a final commit
 * marker). An operator's pause pauses the slot's partitions.
 */
final class SlotPoller {

	private static final LogAccessor logger = new LogAccessor(SlotPoller.class);

	private final SlotId id;

	private final InputDeadline deadline;

	private final SlotRebalanceListener rebalance;

	private final RewindPoints rewindPoints;

	private final SlotMonitor monitor;

	private final WorkerListener listener;

	private Consumer<byte[], byte[]> consumer;

	private boolean paused;

	SlotPoller(SlotId id, InputDeadline deadline, SlotRebalanceListener rebalance, RewindPoints rewindPoints,
			SlotMonitor monitor, WorkerListener listener) {
		this.id = id;
		this.deadline = deadline;
		this.rebalance = rebalance;
		this.rewindPoints = rewindPoints;
		this.monitor = monitor;
		this.listener = listener;
	}

	/**
	 * Start polling with the slot's consumer, subscribed: the input deadline counts from now.
	 * @param consumer the consumer
	 */
	void start(Consumer<byte[], byte[]> consumer) {
		this.consumer = consumer;
		this.deadline.inputArrived();
	}

	/**
	 * Poll with a new consumer from now on: the input deadline still counts from the last
	 * input.
	 * @param consumer the new consumer, subscribed
	 */
	void replace(Consumer<byte[], byte[]> consumer) {
		this.consumer = consumer;
	}

	/**
	 * Poll once.
	 * @param timeout the longest wait for records
	 * @param transactionOpen whether the slot holds an open transaction (an empty poll
	 * without one is a quiet moment)
	 * @return the records
	 * @throws SlotFailure when the last rebalance ended the slot, or a one-shot run's
	 * input deadline passed
	 */
	ConsumerRecords<byte[], byte[]> poll(Duration timeout, boolean transactionOpen) {
		ConsumerRecords<byte[], byte[]> records;
		try {
			records = this.consumer.poll(timeout);
		}
		finally {
			this.rebalance.throwFailure();
		}
		this.rewindPoints.polled(records);
		if (records.isEmpty()) {
			checkIdle();
			if (!transactionOpen) {
				this.monitor.quiet();
			}
		}
		else {
			this.deadline.inputArrived();
		}
		Map<TopicPartition, Long> lag = lag();
		this.monitor.lag(lag);
		this.listener.polled(this.id.worker(), this.id.index(), records.count(), lag);
		return records;
	}

	boolean isPaused() {
		return this.paused;
	}

	/**
	 * Pause or resume every assigned partition (and those assigned while paused); the slot
	 * has committed its open transaction first.
	 * @param pause whether to pause
	 */
	void pause(boolean pause) {
		if (pause) {
			this.consumer.pause(this.consumer.assignment());
		}
		else {
			this.consumer.resume(this.consumer.paused());
		}
		this.paused = pause;
		this.rebalance.paused(pause);
		this.monitor.status(pause ? WorkerStatus.PAUSED : WorkerStatus.RUNNING);
		logger.info(() -> this.id + (pause ? " paused" : " resumed"));
	}

	private Map<TopicPartition, Long> lag() {
		Map<TopicPartition, Long> lag = new HashMap<>();
		for (TopicPartition partition : this.consumer.assignment()) {
			this.consumer.currentLag(partition).ifPresent((behind) -> lag.put(partition, behind));
		}
		return lag;
	}

	/**
	 * Fail a one-shot run whose input deadline has passed.
	 * @throws SlotFailure FAILED when none of the worker's slots had input for the idle
	 * timeout
	 */
	void checkIdle() {
		this.deadline.check();
	}

}
