package dev.lockstep.worker;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

import org.apache.kafka.common.TopicPartition;

/**
 * Counts what a worker reports to its listener: what committed transactions carried (the
 * records a redrive sent back quarantined again among them), the aborted ones, the
 * retries and spent retry budgets, the recoveries by category, the records timed, what
 * concurrent slots hold in flight and the partitions whose lag it reports (polled and not
 * revoked since).
 */
final class CountingListener implements WorkerListener {

	final AtomicLong processed = new AtomicLong();

	final AtomicLong outputs = new AtomicLong();

	final AtomicLong aborted = new AtomicLong();

	final AtomicLong requarantined = new AtomicLong();

	final AtomicLong retried = new AtomicLong();

	final AtomicLong exhausted = new AtomicLong();

	final AtomicLong processingTimed = new AtomicLong();

	final AtomicLong waitsTimed = new AtomicLong();

	private final Map<FailureCategory, AtomicLong> recoveries = new ConcurrentHashMap<>();

	private final Map<Integer, IntSupplier> inFlight = new ConcurrentHashMap<>();

	private final Set<TopicPartition> owned = ConcurrentHashMap.newKeySet();

	@Override
	public void polled(String worker, int slot, int records, Map<TopicPartition, Long> lag) {
		this.owned.addAll(lag.keySet());
	}

	@Override
	public void partitionsRevoked(String worker, int slot, Collection<TopicPartition> partitions) {
		this.owned.removeAll(partitions);
	}

	@Override
	public void committed(String worker, int slot, CommitOutcome outcome) {
		this.processed.addAndGet(outcome.processed());
		this.outputs.addAndGet(outcome.outputs());
		this.requarantined.addAndGet(outcome.requarantined());
	}

	@Override
	public void aborted(String worker, int slot, int records) {
		this.aborted.incrementAndGet();
	}

	@Override
	public void recordRetried(String worker, int slot, int failedAttempts) {
		this.retried.incrementAndGet();
	}

	@Override
	public void retriesExhausted(String worker, int slot, WorkerSettings.InvalidInputPolicy.Mode outcome) {
		this.exhausted.incrementAndGet();
	}

	@Override
	public void recovered(String worker, int slot, FailureCategory category) {
		this.recoveries.computeIfAbsent(category, (key) -> new AtomicLong()).incrementAndGet();
	}

	@Override
	public void concurrentSlotCreated(String worker, int slot, IntSupplier inFlight) {
		this.inFlight.put(slot, inFlight);
	}

	@Override
	public void recordProcessed(String worker, int slot, long processingNanos) {
		this.processingTimed.incrementAndGet();
	}

	@Override
	public void recordWaited(String worker, int slot, long waitedNanos) {
		this.waitsTimed.incrementAndGet();
	}

	/** What a concurrent slot says it holds in flight now. */
	int inFlight(int slot) {
		return this.inFlight.get(slot).getAsInt();
	}

	/** The partitions whose lag the worker reports: polled, and not revoked since. */
	Set<TopicPartition> ownedPartitions() {
		return Set.copyOf(this.owned);
	}

	long recoveries(FailureCategory category) {
		AtomicLong count = this.recoveries.get(category);
		return (count != null) ? count.get() : 0;
	}

}
