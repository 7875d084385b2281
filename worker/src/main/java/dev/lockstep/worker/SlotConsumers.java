package dev.lockstep.worker;

import java.time.Duration;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;

import org.springframework.core.log.LogAccessor;

/**
 * A slot's consumers over its life: each created subscribed to the worker's topics (and
 * announced to the listener, which binds its metrics), one replacing another whose
 * membership the group refused, and closed leaving the group, or, for a static member
 * that keeps its place, remaining in it.
 */
final class SlotConsumers {

	private static final LogAccessor logger = new LogAccessor(SlotConsumers.class);

	private final SlotId id;

	private final WorkerSettings settings;

	private final SlotClients clients;

	private final ConsumerRebalanceListener rebalance;

	private final WorkerListener listener;

	SlotConsumers(SlotId id, WorkerSettings settings, SlotClients clients, ConsumerRebalanceListener rebalance,
			WorkerListener listener) {
		this.id = id;
		this.settings = settings;
		this.clients = clients;
		this.rebalance = rebalance;
		this.listener = listener;
	}

	/**
	 * Create a consumer subscribed to the worker's topics.
	 * @return the consumer
	 */
	Consumer<byte[], byte[]> open() {
		Consumer<byte[], byte[]> created = this.clients.newConsumer();
		this.listener.consumerCreated(this.id.worker(), this.id.index(), created);
		created.subscribe(this.settings.sourceTopics(), this.rebalance);
		return created;
	}

	/**
	 * Create a consumer to replace one the group refused, and close that one. A new
	 * consumer that cannot be created (an unresolvable bootstrap server) leaves the refused
	 * one in place: its next poll fails the same way, and the slot tries again.
	 * @param refused the refused consumer
	 * @return the replacement, or the refused consumer when none could be created
	 */
	Consumer<byte[], byte[]> replace(Consumer<byte[], byte[]> refused) {
		Consumer<byte[], byte[]> replacement;
		try {
			replacement = open();
		}
		catch (RuntimeException ex) {
			logger.warn(() -> this.id + " could not create a new consumer, retrying: " + ex);
			return refused;
		}
		// Not a member: there is nothing to leave, and no reason to wait.
		close(refused, CloseOptions.timeout(Duration.ZERO));
		logger.info(() -> this.id + " joining the group again with a new consumer");
		return replacement;
	}

	/**
	 * Close the consumer as the slot ends: leaving the group moves its partitions to
	 * another instance at once; a static member that keeps its place keeps them for its
	 * restart.
	 * @param consumer the consumer
	 * @param timeout the longest the close waits
	 */
	void closeOnStop(Consumer<byte[], byte[]> consumer, Duration timeout) {
		close(consumer, CloseOptions.timeout(timeout)
			.withGroupMembershipOperation(this.settings.membership().leaveOnStop()
					? CloseOptions.GroupMembershipOperation.LEAVE_GROUP
					: CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP));
	}

	private void close(Consumer<byte[], byte[]> consumer, CloseOptions options) {
		this.listener.consumerClosing(this.id.worker(), this.id.index(), consumer);
		try {
			consumer.close(options);
		}
		catch (RuntimeException ex) {
			logger.warn(ex, () -> this.id + " consumer close");
		}
	}

}
