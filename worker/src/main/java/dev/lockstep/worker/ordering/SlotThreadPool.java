package dev.lockstep.worker.ordering;

import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.worker.slot.SlotId;

/**
 * The threads of one slot's {@link ConcurrentProcessing}: a task goes to an idle thread
 * if one waits, else to a new thread up to the maximum, else to the queue. A
 * {@link ThreadPoolExecutor} with an unbounded queue would instead start a thread for
 * every task up to its core size: hundreds of threads taking turns at a fast processor's
 * records, where a few would do. Idle threads end after a while.
 */
final class SlotThreadPool extends ThreadPoolExecutor {

	private static final long KEEP_ALIVE_SECONDS = 30;

	SlotThreadPool(SlotId id, int maxThreads) {
		super(0, maxThreads, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS, new HandOffQueue(), new Threads(id),
				(task, pool) -> ((HandOffQueue) pool.getQueue()).enqueue(task));
		((HandOffQueue) getQueue()).pool = this;
	}

	/**
	 * Offers a task to an idle thread only, while the pool may still grow: refused, the
	 * executor starts a new thread for it (or, at its maximum, enqueues it).
	 */
	private static final class HandOffQueue extends LinkedTransferQueue<Runnable> {

		private static final long serialVersionUID = 1L;

		private transient ThreadPoolExecutor pool;

		@Override
		public boolean offer(Runnable task) {
			if (tryTransfer(task)) {
				return true;
			}
			return this.pool.getPoolSize() >= this.pool.getMaximumPoolSize() && super.offer(task);
		}

		void enqueue(Runnable task) {
			if (this.pool.isShutdown()) {
				return;
			}
			super.offer(task);
		}

	}

	private static final class Threads implements java.util.concurrent.ThreadFactory {

		private final String prefix;

		private final AtomicInteger count = new AtomicInteger();

		Threads(SlotId id) {
			this.prefix = "lockstep-" + id.worker() + "-" + id.index() + "-p";
		}

		@Override
		public Thread newThread(Runnable task) {
			Thread thread = new Thread(task, this.prefix + this.count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		}

	}

}
