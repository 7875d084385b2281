package dev.lockstep.worker.ordering;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.slot.ProcessedRecord;
import dev.lockstep.worker.slot.SlotId;
import dev.lockstep.worker.slot.SlotWork;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * A slot's records processed at the same time under {@link WorkerSettings.Ordering#KEY}
 * or {@link WorkerSettings.Ordering#NONE}: every polled record is handed to the slot's
 * {@link RecordDispatch}, which runs up to {@code maxInFlight} of them at once (one
 * record per key at a time under KEY); the slot thread takes them back per partition in
 * offset order, each once it and every earlier record of its partition are done, and
 * alone sends outputs and commits. Processing goes on while the slot commits; the slot
 * polls again only while fewer than twice {@code maxInFlight} records are outstanding,
 * so a slow record holds back a bounded number of others. A blocking processor cheaper
 * than a hand-off runs on the slot thread instead, a poll at a time, while nothing runs
 * on the pool, until a record turns out slow: the rest of its poll is then handed over.
 */
final class ConcurrentProcessing implements SlotProcessing {

	private final KeyGates gates;

	private final RecordDispatch dispatch;

	// The same dispatch when the processor is blocking (it may run records here), or null.
	private final BlockingDispatch blocking;

	private final int outstandingLimit;

	// Slot thread only.
	private final Map<TopicPartition, PartitionInFlight> windows = new HashMap<>();

	// Records polled and not yet taken back or dropped; written by the slot thread only.
	private volatile int outstanding;

	// Completions since the slot thread last looked, and the slot thread while it waits.
	private final AtomicInteger completions = new AtomicInteger();

	private volatile Thread waiting;

	// The rest of a poll the slot thread processes itself (BlockingDispatch.runsHere).
	private final PollRest here = new PollRest();

	ConcurrentProcessing(SlotId id, WorkerSettings settings, SlotWork work, WorkerListener listener) {
		this(id, settings, work, listener, 0);
	}

	/**
	 * Create the processing of a slot.
	 * @param assumedNanos what a record of a blocking processor is assumed to cost until
	 * records are measured (tests that hold records on the pool assume them slow)
	 */
	ConcurrentProcessing(SlotId id, WorkerSettings settings, SlotWork work, WorkerListener listener,
			long assumedNanos) {
		this.gates = (settings.ordering() == WorkerSettings.Ordering.KEY) ? new KeyGates() : null;
		int maxInFlight = settings.maxInFlight();
		this.outstandingLimit = 2 * maxInFlight;
		this.blocking = work.isAsync() ? null
				: new BlockingDispatch(id, work, this.gates, maxInFlight, listener, this::signal, assumedNanos);
		this.dispatch = (this.blocking != null) ? this.blocking
				: new AsyncDispatch(id, work, this.gates, maxInFlight, listener, this::signal);
		listener.concurrentSlotCreated(id.worker(), id.index(), this::inFlight);
	}

	/**
	 * Return whether the slot may poll for more records: none of the last poll is left to
	 * process here, fewer than twice max-in-flight records are outstanding, and (for a
	 * processor cheaper than a hand-off) nothing is left on the pool.
	 * @return whether to poll
	 */
	@Override
	public boolean acceptsMore() {
		if (this.here.hasNext() || this.outstanding >= this.outstandingLimit) {
			return false;
		}
		// Cheap records go no more to the pool: once it drains, they run here.
		return this.outstanding == 0 || this.blocking == null || !this.blocking.isCheap();
	}

	@Override
	public void add(ConsumerRecords<byte[], byte[]> records) {
		if (this.outstanding == 0 && this.blocking != null && this.blocking.runsHere() && !records.isEmpty()) {
			this.blocking.startHere(records.count());
			this.here.set(records);
		}
		else {
			handOver(records, records.count());
		}
		this.outstanding += records.count();
	}

	private void handOver(Iterable<ConsumerRecord<byte[], byte[]>> records, int count) {
		List<InFlightRecord> added = new ArrayList<>(count);
		PartitionInFlight window = null;
		for (ConsumerRecord<byte[], byte[]> raw : records) {
			if (window == null || !window.holds(raw)) {
				window = this.windows.computeIfAbsent(new TopicPartition(raw.topic(), raw.partition()),
						PartitionInFlight::new);
			}
			InFlightRecord record = new InFlightRecord(raw, window,
					(this.gates != null) ? KeyGates.Key.of(window.partition(), raw.key()) : null);
			window.add(record);
			added.add(record);
		}
		this.dispatch.handed(added.size());
		this.dispatch.start((this.gates != null) ? this.gates.admit(added) : added);
	}

	private void signal() {
		this.completions.incrementAndGet();
		Thread slot = this.waiting;
		if (slot != null) {
			LockSupport.unpark(slot);
		}
	}

	@Override
	public ProcessedRecord takeDone() {
		if (this.here.hasNext()) {
			ProcessedRecord record = this.blocking.runHere(this.here.next());
			this.outstanding--;
			if (!this.here.hasNext()) {
				this.blocking.endHere();
			}
			else if (this.blocking.isHereOverBudget()) {
				// Slower than cheap records: the rest of the poll goes to the pool.
				this.blocking.endHere();
				List<ConsumerRecord<byte[], byte[]>> rest = this.here.takeAll();
				handOver(rest, rest.size());
			}
			return record;
		}
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
		this.here.clear();
		this.windows.values().forEach(PartitionInFlight::close);
		this.windows.clear();
		this.outstanding = 0;
	}

	@Override
	public void discard(Collection<TopicPartition> partitions) {
		this.outstanding -= this.here.remove(partitions);
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

	@Override
	public boolean hasPending(Collection<TopicPartition> partitions) {
		if (this.here.holdsAny(partitions)) {
			return true;
		}
		for (TopicPartition partition : partitions) {
			PartitionInFlight window = this.windows.get(partition);
			if (window != null && window.size() > 0) {
				return true;
			}
		}
		return false;
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
		this.dispatch.close();
	}

}
