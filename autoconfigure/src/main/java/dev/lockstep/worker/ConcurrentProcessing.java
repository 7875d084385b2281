package dev.lockstep.worker;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * A slot's records processed at the same time under {@link WorkerSettings.Ordering#KEY}
 * or {@link WorkerSettings.Ordering#NONE}: polled records wait in a backlog until one of
 * {@code maxInFlight} places is free, run on a pool the slot owns (one key at a time
 * under KEY), and are taken back by the slot thread per partition in offset order, each
 * once it and every earlier record of its partition are done. The slot thread alone
 * sends outputs and commits; this class only runs the work.
 */
final class ConcurrentProcessing implements AutoCloseable {

	/**
	 * The work done for one record on a pool thread: decode, process, encode.
	 */
	@FunctionalInterface
	interface Work {

		/**
		 * Process one record into its output.
		 * @param raw the record as consumed
		 * @param output collects and encodes what the processor sends
		 * @return whether the record is a tombstone
		 * @throws Exception as the codecs or the processor throw it
		 */
		boolean run(ConsumerRecord<byte[], byte[]> raw, BufferedOutput output) throws Exception;

	}

	private final Work work;

	private final SlotCodecs codecs;

	private final KeyGates gates;

	private final int maxInFlight;

	private final ExecutorService pool;

	// Records holding a place: admitted and not yet taken back (or, if stale, finished).
	private final AtomicInteger inFlight = new AtomicInteger();

	// Slot thread only.
	private final Map<TopicPartition, PartitionInFlight> windows = new HashMap<>();

	private final ArrayDeque<ConsumerRecord<byte[], byte[]>> backlog = new ArrayDeque<>();

	// Completions since the slot thread last looked, and the slot thread while it waits.
	private final AtomicInteger completions = new AtomicInteger();

	private volatile Thread waiting;

	ConcurrentProcessing(SlotId id, WorkerSettings settings, SlotCodecs codecs, Work work) {
		this.work = work;
		this.codecs = codecs;
		this.gates = (settings.ordering() == WorkerSettings.Ordering.KEY) ? new KeyGates() : null;
		this.maxInFlight = settings.maxInFlight();
		AtomicInteger threads = new AtomicInteger();
		// A fork-join pool starts threads only while work waits and none is idle: as many
		// as blocking processors need, up to max-in-flight; few for fast ones.
		this.pool = new ForkJoinPool(this.maxInFlight, (forkJoinPool) -> {
			ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(forkJoinPool);
			thread.setName("lockstep-" + id.worker() + "-" + id.index() + "-p" + threads.incrementAndGet());
			return thread;
		}, null, true);
	}

	/**
	 * Add what a poll returned to the backlog.
	 * @param records the records
	 */
	void add(ConsumerRecords<byte[], byte[]> records) {
		for (ConsumerRecord<byte[], byte[]> record : records) {
			this.backlog.addLast(record);
		}
	}

	/**
	 * Start backlog records while places are free.
	 */
	void dispatch() {
		while (!this.backlog.isEmpty() && this.inFlight.get() < this.maxInFlight) {
			ConsumerRecord<byte[], byte[]> raw = this.backlog.pollFirst();
			TopicPartition partition = new TopicPartition(raw.topic(), raw.partition());
			PartitionInFlight window = this.windows.computeIfAbsent(partition, PartitionInFlight::new);
			KeyGates.Key key = (this.gates != null) ? KeyGates.Key.of(partition, raw.key()) : null;
			InFlightRecord record = new InFlightRecord(raw, window, key);
			window.add(record);
			this.inFlight.incrementAndGet();
			if (key == null || this.gates.admit(record)) {
				start(record);
			}
		}
	}

	private void start(InFlightRecord record) {
		this.pool.execute(() -> run(record));
	}

	private void run(InFlightRecord record) {
		record.startedNanos = System.nanoTime();
		if (!record.isStale()) {
			BufferedOutput output = this.codecs.newOutput();
			try {
				record.tombstone = this.work.run(record.raw, output);
				record.outputs = output.records();
			}
			catch (Exception ex) {
				record.failure = ex;
			}
			catch (Throwable ex) {
				record.failure = new IllegalStateException("Processing failed", ex);
			}
		}
		record.doneNanos = System.nanoTime();
		record.done = true;
		if (record.isStale()) {
			release(record);
		}
		if (record.key != null) {
			InFlightRecord next = this.gates.done(record, this::release);
			if (next != null) {
				start(next);
			}
		}
		this.completions.incrementAndGet();
		Thread slot = this.waiting;
		if (slot != null) {
			LockSupport.unpark(slot);
		}
	}

	/**
	 * Take back the next record that is done and whose partition's earlier records are
	 * all taken back.
	 * @return the record, or {@code null} when none is ready
	 */
	InFlightRecord takeDone() {
		for (PartitionInFlight window : this.windows.values()) {
			InFlightRecord record = window.takeDone();
			if (record != null) {
				release(record);
				return record;
			}
		}
		return null;
	}

	/**
	 * Wait until a record completes, at most the given time.
	 * @param timeout the longest wait
	 * @return how many records completed since the last call
	 */
	int awaitCompletion(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		this.waiting = Thread.currentThread();
		try {
			long left = timeout.toNanos();
			while (this.completions.get() == 0 && left > 0 && !Thread.currentThread().isInterrupted()) {
				LockSupport.parkNanos(this, left);
				left = deadline - System.nanoTime();
			}
		}
		finally {
			this.waiting = null;
		}
		return this.completions.getAndSet(0);
	}

	/**
	 * Drop every record not yet taken back: the slot rewound. Work still running
	 * finishes on its thread, and its result is dropped.
	 */
	void discard() {
		this.backlog.clear();
		this.windows.values().forEach((window) -> window.close(this::release));
		this.windows.clear();
	}

	/**
	 * Drop the records of partitions the slot no longer owns.
	 * @param partitions the partitions
	 */
	void discard(Collection<TopicPartition> partitions) {
		this.backlog.removeIf((record) -> partitions
			.contains(new TopicPartition(record.topic(), record.partition())));
		for (TopicPartition partition : partitions) {
			PartitionInFlight window = this.windows.remove(partition);
			if (window != null) {
				window.close(this::release);
			}
		}
	}

	/**
	 * Return whether the backlog holds records that wait for a free place.
	 * @return whether there is a backlog
	 */
	boolean hasBacklog() {
		return !this.backlog.isEmpty();
	}

	/**
	 * Return whether any record of the current assignment is in flight (started, waiting
	 * behind its key, or done and not yet taken back).
	 * @return whether records are pending
	 */
	boolean hasPending() {
		for (PartitionInFlight window : this.windows.values()) {
			if (!window.isEmpty()) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return the records holding a place: started, waiting behind their key, done and not
	 * yet taken back, or stale and still running.
	 * @return the records in flight
	 */
	int inFlight() {
		return this.inFlight.get();
	}

	private void release(InFlightRecord record) {
		if (record.release()) {
			this.inFlight.decrementAndGet();
		}
	}

	/**
	 * Stop the pool; work still running finishes on its own, and its result is dropped.
	 */
	@Override
	public void close() {
		discard();
		this.pool.shutdown();
	}

}
