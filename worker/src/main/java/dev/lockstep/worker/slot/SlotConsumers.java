package dev.lockstep.worker.slot;

import java.time.Duration;
import java.util.Set;

import dev.lockstep.worker.FailureClassifier;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerSettings;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;

import org.springframework.core.log.LogAccessor;

/**
 * A slot's consumer over its life, and the one place that knows which consumer is current:
 * each created subscribed to the worker's topics (and announced to the listener, which
 * binds its metrics), one replacing another whose membership the group refused or that
 * was denied an input topic, and the last closed leaving the group, or, for a static member
 * that keeps its place, remaining in it.
 */
final class SlotConsumers {

	private static final LogAccessor logger = new LogAccessor(SlotConsumers.class);

	private final SlotId id;

	private final WorkerSettings settings;

	private final SlotClients clients;

	private final WorkerListener listener;

	private ConsumerRebalanceListener rebalance;

	private Consumer<byte[], byte[]> current;

	SlotConsumers(SlotId id, WorkerSettings settings, SlotClients clients, WorkerListener listener) {
		this.id = id;
		this.settings = settings;
		this.clients = clients;
		this.listener = listener;
	}

	/**
	 * Create the slot's consumer, subscribed to the worker's topics.
	 * @param rebalance the listener to its rebalances, and to those of every replacement
	 */
	void open(ConsumerRebalanceListener rebalance) {
		this.rebalance = rebalance;
		this.current = subscribed();
	}

	/**
	 * Return the slot's current consumer.
	 * @return the consumer (closed once {@link #closeOnStop} ran), or {@code null} until
	 * {@link #open} succeeded
	 */
	Consumer<byte[], byte[]> current() {
		return this.current;
	}

	/**
	 * Replace the current consumer, whose membership the group refused, with a new one,
	 * and close it. A new consumer that cannot be created (an unresolvable bootstrap
	 * server) leaves the refused one in place: its next poll fails the same way, and the
	 * slot tries again.
	 * @return whether the consumer was replaced
	 */
	boolean replaceRefused() {
		// Not a member: there is nothing to leave, and no reason to wait.
		return replace(CloseOptions.timeout(Duration.ZERO));
	}

	/**
	 * Replace the current consumer, which was told it may not read one of the worker's
	 * topics, with a new one that asks the cluster again, and close it as a member (a
	 * dynamic member leaves, so the group need not wait for it).
	 * @return whether the consumer was replaced
	 */
	boolean replaceDenied() {
		return replace(CloseOptions.timeout(this.settings.shutdownTimeout()));
	}

	/**
	 * Return whether a failure says the slot's consumer may not read one of the worker's
	 * topics.
	 * @param failure the failure
	 * @return whether an input topic was denied
	 */
	boolean deniedAnInput(Throwable failure) {
		return FailureClassifier.deniesAny(failure, this.settings.sourceTopics());
	}

	private boolean replace(CloseOptions closeReplaced) {
		Consumer<byte[], byte[]> replacement;
		try {
			replacement = subscribed();
		}
		catch (RuntimeException ex) {
			logger.warn(() -> this.id + " could not create a new consumer, retrying: " + ex);
			return false;
		}
		close(this.current, closeReplaced);
		this.current = replacement;
		logger.info(() -> this.id + " joining the group again with a new consumer");
		return true;
	}

	/**
	 * Close the consumer, if any, as the slot ends: leaving the group moves its partitions
	 * to another instance at once; a static member that keeps its place keeps them for its
	 * restart.
	 * @param timeout the longest the close waits
	 */
	void closeOnStop(Duration timeout) {
		if (this.current == null) {
			return;
		}
		close(this.current, CloseOptions.timeout(timeout)
			.withGroupMembershipOperation(this.settings.membership().leaveOnStop()
					? CloseOptions.GroupMembershipOperation.LEAVE_GROUP
					: CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP));
	}

	private Consumer<byte[], byte[]> subscribed() {
		Consumer<byte[], byte[]> created = this.clients.newConsumer();
		this.listener.consumerCreated(this.id.worker(), this.id.index(), created);
		created.subscribe(this.settings.sourceTopics(), this.rebalance);
		return created;
	}

	private void close(Consumer<byte[], byte[]> consumer, CloseOptions options) {
		this.listener.consumerClosing(this.id.worker(), this.id.index(), consumer);
		// Kafka's rebalance callback reports them too, unless the close's time runs out first.
		Set<TopicPartition> assigned = Set.of();
		try {
			assigned = Set.copyOf(consumer.assignment());
			consumer.close(options);
		}
		catch (RuntimeException ex) {
			logger.warn(ex, () -> this.id + " consumer close");
		}
		finally {
			if (!assigned.isEmpty()) {
				this.listener.partitionsRevoked(this.id.worker(), this.id.index(), assigned);
			}
		}
	}

}
