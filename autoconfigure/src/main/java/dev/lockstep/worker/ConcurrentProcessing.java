package dev.lockstep.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

import org.springframework.core.log.LogAccessor;

/**
 * A slot's records processed at the same time under {@link WorkerSettings.Ordering#KEY}
 * or {@link WorkerSettings.Ordering#NONE}: every polled record is queued for a pool the
 * slot owns, whose {@code maxInFlight} threads process that many records at once (one
 * record per key at a time under KEY); the slot thread takes them back per partition in
 * offset order, each once it and every earlier record of its partition are done, and
 * alone sends outputs and commits. The pool goes on processing while the slot commits;
 * the slot polls again only while fewer than twice {@code maxInFlight} records are
 * outstanding, so a slow record holds back a bounded number of others.
 */
final class ConcurrentProcessing implements SlotProcessing {

	private static final LogAccessor logger = new LogAccessor(ConcurrentProcessing.class);

	// A task runs a batch of records for a fast processor (one hand-off to a thread costs
	// more than such a record), a single record for a slow one: the batch is sized to about
	// this much work by the recent processing time.
	private static final long BATCH_NANOS = 200_000;

	private static final int MAX_BATCH = 64;

	private final Work work;

	private final SlotCodecs codecs;

	private final KeyGates gates;

	private final int outstandingLimit;

	private final SlotThreadPool pool;

	private final SlotId id;

	private final WorkerListener listener;

	// Slot thread only.
	private final Map<TopicPartition, PartitionInFlight> windows = new HashMap<>();

	// Records polled and not yet taken back or dropped; written by the slot thread only.
	private volatile int outstanding;

	// Completions since the slot thread last looked, and the slot thread while it waits.
	private final AtomicInteger completions = new AtomicInteger();

	private volatile Thread waiting;

	// A moving average of recent processing times, written by pool threads without
	// coordination (an estimate); it starts slow, so the first records run one per task.
	private volatile long averageNanos = 1_000_000;

	ConcurrentProcessing(SlotId id, WorkerSettings settings, SlotCodecs codecs, Work work, WorkerListener listener) {
		this.id = id;
		this.listener = listener;
		this.work = work;
		this.codecs = codecs;
		this.gates = (settings.ordering() == WorkerSettings.Ordering.KEY) ? new KeyGates() : null;
		int maxInFlight = settings.maxInFlight();
		this.outstandingLimit = 2 * maxInFlight;
		this.pool = new SlotThreadPool(id, maxInFlight);
		listener.concurrentSlotCreated(id.worker(), id.index(), this::inFlight);
	}

	/**
	 * Return whether the slot may poll for more records.
	 * @return whether fewer than twice max-in-flight records are outstanding
	 */
	@Override
	public boolean acceptsMore() {
		return this.outstanding < this.outstandingLimit;
	}

	@Override
	public void add(ConsumerRecords<byte[], byte[]> records) {
		List<InFlightRecord> added = new ArrayList<>(records.count());
		for (TopicPartition partition : records.partitions()) {
			PartitionInFlight window = this.windows.computeIfAbsent(partition, PartitionInFlight::new);
			for (ConsumerRecord<byte[], byte[]> raw : records.records(partition)) {
				InFlightRecord record = new InFlightRecord(raw, window,
						(this.gates != null) ? KeyGates.Key.of(partition, raw.key()) : null);
				window.add(record);
				added.add(record);
			}
		}
		this.outstanding += records.count();
		execute((this.gates != null) ? this.gates.admit(added) : added);
	}

	/** Start records in batches sized by the recent processing time. */
	private void execute(List<InFlightRecord> records) {
		int batchSize = (int) Math.max(1, Math.min(MAX_BATCH, BATCH_NANOS / Math.max(1, this.averageNanos)));
		for (int from = 0; from < records.size(); from += batchSize) {
			InFlightRecord[] batch = records.subList(from, Math.min(records.size(), from + batchSize))
				.toArray(InFlightRecord[]::new);
			this.pool.execute(() -> run(batch));
		}
	}

	private void run(InFlightRecord[] batch) {
		while (batch.length > 0) {
			for (InFlightRecord record : batch) {
				process(record);
				if (batch.length == 1) {
					signal();
				}
			}
			if (batch.length > 1) {
				// A fast batch wakes the slot once, not for every record.
				signal();
			}
			// The next records of their keys run on this thread: no hand-off.
			batch = (this.gates != null) ? this.gates.done(batch).toArray(InFlightRecord[]::new) : new InFlightRecord[0];
		}
	}

	private void signal() {
		this.completions.incrementAndGet();
		Thread slot = this.waiting;
		if (slot != null) {
			LockSupport.unpark(slot);
		}
	}

	private void process(InFlightRecord record) {
		// A record dropped by a rewind or revoke while it waited is not processed.
		if (record.isStale()) {
			record.done = true;
			return;
		}
		long startedNanos = System.nanoTime();
		try {
			record.result = ProcessedRecord.run(this.work, record.raw, this.codecs);
		}
		catch (Throwable ex) {
			// Thrown on, it would end the task and leave the record never done.
			record.result = new ProcessedRecord(record.raw, false, null,
					new IllegalStateException("Processing failed", ex));
		}
		long processingNanos = System.nanoTime() - startedNanos;
		record.done = true;
		long average = this.averageNanos;
		this.averageNanos = average + (processingNanos - average) / 16;
		try {
			this.listener.recordProcessed(this.id.worker(), this.id.index(), startedNanos - record.queuedNanos,
					processingNanos);
		}
		catch (RuntimeException ex) {
			logger.debug(ex, () -> this.id + " listener failed");
		}
	}

	@Override
	public ProcessedRecord takeDone() {
		for (PartitionInFlight window : this.windows.values()) {
			InFlightRecord record = window.takeDone();
			if (record != null) {
				this.outstanding--;
				return record.result;
			}
		}
		return null;
	}

	@Override
	public int awaitCompletion(Duration timeout) {
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
	@Override
	public void discard() {
		this.windows.values().forEach(PartitionInFlight::close);
		this.windows.clear();
		this.outstanding = 0;
	}

	@Override
	public void discard(Collection<TopicPartition> partitions) {
		for (TopicPartition partition : partitions) {
			PartitionInFlight window = this.windows.remove(partition);
			if (window != null) {
				this.outstanding -= window.size();
				window.close();
			}
		}
	}

	@Override
	public boolean hasPending() {
		return this.outstanding > 0;
	}

	/**
	 * Return the records polled and not yet taken back into a transaction: waiting for a
	 * thread or behind their key, processing, or done and waiting for earlier records of
	 * their partition. Readable from any thread.
	 * @return the records in flight
	 */
	@Override
	public int inFlight() {
		return this.outstanding;
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
