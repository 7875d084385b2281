package dev.lockstep.worker.slot;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerStatus;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

import org.springframework.core.log.LogAccessor;

/**
 * A slot's polls and what each one tells: the rewind point of every partition it read,
 * the input deadline of a one-shot run (shared by the worker's slots), a quiet slot, and the lag of every assigned
 * partition from its first uncommitted record (read on every poll: an empty poll is what
 * moves past a final commit marker). An operator's pause pauses the slot's partitions.
 */
final class SlotPoller {

	private static final LogAccessor logger = new LogAccessor(SlotPoller.class);

	private final SlotId id;

	private final InputDeadline deadline;

	private final SlotRebalanceListener rebalance;

	private final RewindPoints rewindPoints;

	private final SlotRetries retries;

	private final SlotMonitor monitor;

	private final WorkerListener listener;

	private final SlotConsumers consumers;

	private boolean paused;

	SlotPoller(SlotId id, InputDeadline deadline, SlotRebalanceListener rebalance, RewindPoints rewindPoints,
			SlotRetries retries, SlotMonitor monitor, WorkerListener listener, SlotConsumers consumers) {
		this.id = id;
		this.deadline = deadline;
		this.rebalance = rebalance;
		this.rewindPoints = rewindPoints;
		this.retries = retries;
		this.monitor = monitor;
		this.listener = listener;
		this.consumers = consumers;
	}

	/**
	 * Start polling with the slot's consumer, subscribed: the input deadline counts from
	 * now. (A consumer replacing a refused one polls on, the deadline counting from the
	 * last input.)
	 */
	void start() {
		this.deadline.inputArrived();
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
			records = this.consumers.current().poll(timeout);
		}
		finally {
			this.rebalance.throwFailure();
		}
		this.rewindPoints.polled(records);
		if (records.isEmpty() && !this.retries.isHolding()) {
			// A partition waiting for a record's next attempt has input: neither idle nor quiet.
			this.deadline.check();
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
	 * Pause or resume every assigned partition (and those assigned while paused), except
	 * that a partition waiting for a record's next attempt resumes when that is due; the
	 * slot has committed its open transaction first.
	 * @param pause whether to pause
	 */
	void pause(boolean pause) {
		Consumer<byte[], byte[]> consumer = this.consumers.current();
		if (pause) {
			consumer.pause(consumer.assignment());
		}
		else {
			consumer.resume(consumer.paused().stream().filter((held) -> !this.retries.isHeld(held)).toList());
		}
		this.paused = pause;
		this.rebalance.paused(pause);
		this.monitor.status(pause ? WorkerStatus.PAUSED : WorkerStatus.RUNNING);
		logger.info(() -> this.id + (pause ? " paused" : " resumed"));
	}

	/**
	 * Each assigned partition's lag from its first uncommitted record, not from the
	 * consumer's position: records read but not committed yet (or failing again and again)
	 * are still to do, as the group's committed offsets tell an operator or an autoscaler.
	 */
	private Map<TopicPartition, Long> lag() {
		Consumer<byte[], byte[]> consumer = this.consumers.current();
		Map<TopicPartition, Long> lag = new HashMap<>();
		for (TopicPartition partition : consumer.assignment()) {
			OptionalLong pastPosition = consumer.currentLag(partition);
			if (pastPosition.isPresent()) {
				lag.put(partition, pastPosition.getAsLong() + this.rewindPoints.readUncommitted(partition));
			}
		}
		return lag;
	}

}
