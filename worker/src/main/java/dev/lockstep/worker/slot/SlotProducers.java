package dev.lockstep.worker.slot;

import java.time.Duration;

import dev.lockstep.worker.FailureCategory;
import dev.lockstep.worker.FailureClassifier;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerStatus;
import org.apache.kafka.clients.producer.Producer;

import org.springframework.core.log.LogAccessor;

/**
 * A slot's transactional producers over its life: each created and initialised, which
 * fences any predecessor with the slot's transactional id and aborts its open
 * transaction (and announced to the listener, which binds its metrics), then closed.
 */
final class SlotProducers {

	private static final LogAccessor logger = new LogAccessor(SlotProducers.class);

	private final SlotId id;

	private final SlotClients clients;

	private final SlotFailures failures;

	private final BackOff backOff;

	private final SlotMonitor monitor;

	private final WorkerListener listener;

	SlotProducers(SlotId id, SlotClients clients, SlotFailures failures, BackOff backOff, SlotMonitor monitor,
			WorkerListener listener) {
		this.id = id;
		this.clients = clients;
		this.failures = failures;
		this.backOff = backOff;
		this.monitor = monitor;
		this.listener = listener;
	}

	/**
	 * Create and initialise a producer. Every failure is retried after a back-off until the
	 * slot stops (a broker restarting, credentials or ACLs being rolled out, a fence by a
	 * concurrent initialisation), except one that retrying cannot change
	 * ({@link FailureClassifier#isPermanent(Throwable)}): that fails the slot. A timeout is
	 * retried by the same producer; after any other failure Kafka's producer keeps it for
	 * good (authentication, authorization, a fence), so a new producer tries again.
	 * @return the initialised producer, or {@code null} when waiting ended first (the slot
	 * was asked to stop, or its thread was interrupted)
	 * @throws SlotFailure FAILED for a failure retrying cannot change
	 */
	Producer<byte[], byte[]> start() {
		Producer<byte[], byte[]> created = null;
		String lastReason = null;
		while (true) {
			try {
				if (created == null) {
					created = this.clients.newProducer();
				}
				created.initTransactions();
				this.listener.producerCreated(this.id.worker(), this.id.index(), created);
				return created;
			}
			catch (RuntimeException ex) {
				FailureCategory category = this.failures.categorize(ex);
				String reason = FailureClassifier.describe(ex);
				this.monitor.error("Producer initialisation failed (" + category + "), transactional id "
						+ this.id.transactionalId() + ": " + reason);
				if (FailureClassifier.isPermanent(ex) || this.backOff.isStopped()) {
					close(created);
					if (this.backOff.isStopped()) {
						return null;
					}
					throw new SlotFailure(WorkerStatus.FAILED, "producer initialisation failed: " + reason);
				}
				if (!reason.equals(lastReason)) {
					// Once per distinct reason: a long outage is one line, not one per attempt.
					logger.warn(() -> this.id + " producer initialisation failed (" + category + "), retrying: "
							+ reason);
					lastReason = reason;
				}
				this.backOff.await();
				if (category != FailureCategory.RETRIABLE) {
					close(created);
					created = null;
				}
			}
		}
	}

	private static void close(Producer<byte[], byte[]> failed) {
		if (failed != null) {
			failed.close(Duration.ZERO);
		}
	}

	/**
	 * Close a producer; an open transaction it holds is left to be aborted.
	 * @param producer the producer
	 * @param timeout the longest the close waits
	 */
	void close(Producer<byte[], byte[]> producer, Duration timeout) {
		this.listener.producerClosing(this.id.worker(), this.id.index(), producer);
		try {
			producer.close(timeout);
		}
		catch (RuntimeException ex) {
			logger.warn(ex, () -> this.id + " producer close");
		}
	}

}
