package dev.lockstep.worker.slot;

import java.time.Duration;

import org.apache.kafka.common.errors.FencedInstanceIdException;

/**
 * What the evidence the cluster gave says of a fence: one the slot can explain, recovered
 * from by re-initialising its producer, or another live instance's takeover of its
 * transactional id (or its static member id), which stops the slot. Elapsed time decides
 * nothing.
 * <p>
 * A fenced producer is explained when the coordinator aborted a transaction that outlived
 * its timeout (a pause, a GC, a frozen VM, a broker down) and bumped the epoch, or when a
 * transaction call that timed out and was repeated met the epoch its own first attempt
 * bumped (a broker restarting). A fence nothing explains means another producer
 * initialised the transactional id: re-initialising takes the id back, and when the slot
 * is fenced that way again, the other producer has taken it back in turn, so another live
 * instance is using the id. A fenced group instance id means another member joined the
 * group with the slot's static member id.
 */
final class FenceEvidence {

	private final Duration transactionTimeout;

	// A transaction call of this producer timed out and was repeated since its last
	// successful commit or abort: the first attempt may have reached the coordinator and
	// bumped the epoch, so a fence that follows may be this producer's own doing.
	private boolean retriedSinceSettled;

	// The producer was re-initialised after a fence that nothing this slot did explains.
	private boolean fencedByAnotherProducer;

	FenceEvidence(Duration transactionTimeout) {
		this.transactionTimeout = transactionTimeout;
	}

	/** A transaction call timed out and is being repeated. */
	void retried() {
		this.retriedSinceSettled = true;
	}

	/** A producer was started, or a commit or an abort completed: no call is pending. */
	void settled() {
		this.retriedSinceSettled = false;
	}

	/**
	 * Explain a fence.
	 * @param fence the fence
	 * @param transaction the transaction open when it came, or {@code null}
	 * @return why the producer was fenced, when the slot re-initialises it; {@code null}
	 * when another live instance took over
	 */
	String explain(Throwable fence, OpenTransaction transaction) {
		if (isGroupInstanceFence(fence)) {
			return null;
		}
		if (this.retriedSinceSettled) {
			return "a transaction call timed out and was repeated";
		}
		if (transaction != null && transaction.age().compareTo(this.transactionTimeout) >= 0) {
			return "its transaction outlived the transaction timeout";
		}
		if (this.fencedByAnotherProducer) {
			return null;
		}
		this.fencedByAnotherProducer = true;
		return "another producer initialised the transactional id";
	}

	private static boolean isGroupInstanceFence(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof FencedInstanceIdException) {
				return true;
			}
		}
		return false;
	}

}
