package dev.lockstep.worker;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.IntStream;

import dev.lockstep.worker.invalid.QuarantineRedrive;
import dev.lockstep.worker.slot.InputDeadline;
import dev.lockstep.worker.slot.KafkaSlotClients;
import dev.lockstep.worker.slot.RecordBudget;
import dev.lockstep.worker.slot.SlotClients;
import dev.lockstep.worker.slot.SlotId;
import dev.lockstep.worker.slot.SlotMonitor;
import dev.lockstep.worker.slot.SlotWork;
import dev.lockstep.worker.slot.WorkerSlot;

import org.springframework.core.log.LogAccessor;

/**
 * A transactional consume-transform-produce worker: {@code concurrency} slots, each
 * one consumer and one transactional producer on its own thread, with a transactional id
 * per slot ({@code <transactionalId>-<instance>-<slot>}). Input offsets are
 * committed only inside the transaction that writes the output, so downstream
 * {@code read_committed} readers see each input's output exactly once.
 */
public final class Worker {

	private static final LogAccessor logger = new LogAccessor(Worker.class);

	private final WorkerSettings settings;

	private final List<WorkerSlot> slots = new ArrayList<>();

	private final List<SlotMonitor> monitors = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	private final Set<QuarantineRedrive> redrives = ConcurrentHashMap.newKeySet();

	private final Function<WorkerSettings, ClusterFeatures> clusterProbe;

	private final WorkerListener listener;

	private volatile ClusterFeatures cluster = ClusterFeatures.unread("not asked yet: the worker has not started");

	// Read without the start lock: a start waits for the cluster's features.
	private volatile boolean started;

	/**
	 * Create a worker with the default recovery policy.
	 * @param settings the settings
	 * @param processor the business logic
	 */
	public Worker(WorkerSettings settings, RecordProcessor<?, ?> processor) {
		this(settings, processor, RecoveryPolicy.AS_CLASSIFIED);
	}

	/**
	 * Create a worker.
	 * @param settings the settings
	 * @param processor the business logic
	 * @param recoveryPolicy how failures are recovered from
	 */
	public Worker(WorkerSettings settings, RecordProcessor<?, ?> processor, RecoveryPolicy recoveryPolicy) {
		this(settings, processor, recoveryPolicy, WorkerListener.NONE);
	}

	/**
	 * Create a worker.
	 * @param settings the settings
	 * @param processor the business logic
	 * @param recoveryPolicy how failures are recovered from
	 * @param listener hears what the slots do (metrics, logs)
	 */
	public Worker(WorkerSettings settings, RecordProcessor<?, ?> processor, RecoveryPolicy recoveryPolicy,
			WorkerListener listener) {
		this(settings, (slotSettings) -> SlotWork.of(slotSettings, processor), recoveryPolicy, listener,
				(slot) -> new KafkaSlotClients(settings, slot), ClusterFeatureProbe::read);
	}

	/**
	 * Create a worker whose business logic is asynchronous.
	 * @param settings the settings
	 * @param processor the business logic
	 * @param recoveryPolicy how failures are recovered from
	 * @param listener hears what the slots do (metrics, logs)
	 */
	public Worker(WorkerSettings settings, AsyncRecordProcessor<?, ?> processor, RecoveryPolicy recoveryPolicy,
			WorkerListener listener) {
		this(settings, (slotSettings) -> SlotWork.of(slotSettings, processor), recoveryPolicy, listener,
				(slot) -> new KafkaSlotClients(settings, slot), ClusterFeatureProbe::read);
	}

	Worker(WorkerSettings settings, RecordProcessor<?, ?> processor, RecoveryPolicy recoveryPolicy,
			WorkerListener listener, Function<SlotId, SlotClients> clients) {
		this(settings, (slotSettings) -> SlotWork.of(slotSettings, processor), recoveryPolicy, listener, clients);
	}

	// Clients other than Kafka's (tests' mocks): no cluster to ask for its features.
	Worker(WorkerSettings settings, Function<WorkerSettings, SlotWork> work, RecoveryPolicy recoveryPolicy,
			WorkerListener listener, Function<SlotId, SlotClients> clients) {
		this(settings, work, recoveryPolicy, listener, clients,
				(ignored) -> ClusterFeatures.unread("not asked: the worker's clients are not Kafka's"));
	}

	private Worker(WorkerSettings settings, Function<WorkerSettings, SlotWork> work, RecoveryPolicy recoveryPolicy,
			WorkerListener listener, Function<SlotId, SlotClients> clients,
			Function<WorkerSettings, ClusterFeatures> clusterProbe) {
		this.settings = settings;
		this.clusterProbe = clusterProbe;
		this.listener = listener;
		long stopAfter = settings.bounds().stopAfterRecords();
		RecordBudget budget = (stopAfter > 0) ? new RecordBudget(stopAfter) : null;
		InputDeadline deadline = new InputDeadline(settings.bounds().idleTimeout());
		FailureClassifier classifier = new FailureClassifier(settings.codecs().invalidData());
		for (int slot = 0; slot < settings.concurrency(); slot++) {
			SlotId id = SlotId.of(settings, slot);
			SlotMonitor monitor = new SlotMonitor(slot, id.transactionalId(), Clock.systemUTC(),
					settings.recovery().stallAfter());
			this.monitors.add(monitor);
			this.slots.add(new WorkerSlot(id, settings, clients.apply(id), work.apply(settings),
					classifier, recoveryPolicy, monitor, budget, deadline, listener));
		}
		listener.workerCreated(settings.name());
	}

	/**
	 * Read the cluster's features, refuse a configuration they cannot serve, then start
	 * every slot on its own thread.
	 * @throws MissingClusterFeatureException when the cluster lacks a feature the
	 * configuration needs (no slot started)
	 */
	public void start() {
		if (this.started) {
			return;
		}
		checkCluster();
		startSlots();
	}

	/**
	 * Read the cluster's features (without the start lock: it waits for the cluster) and
	 * refuse a configuration they cannot serve.
	 * @throws MissingClusterFeatureException when the cluster lacks a feature the
	 * configuration needs
	 */
	void checkCluster() {
		this.cluster = this.clusterProbe.apply(this.settings);
		ClusterRequirements.check(this.settings.name(), this.settings.consumerProperties(), this.cluster);
	}

	/**
	 * Start every slot on its own thread, once.
	 */
	synchronized void startSlots() {
		if (this.started) {
			return;
		}
		this.started = true;
		for (int slot = 0; slot < this.slots.size(); slot++) {
			Thread thread = new Thread(this.slots.get(slot), "lockstep-" + this.settings.name() + "-" + slot);
			this.threads.add(thread);
			thread.start();
		}
		logger.info(() -> "Worker " + this.settings.name() + " started " + this.slots.size() + " slot(s) on "
				+ this.settings.sourceTopics() + " -> " + this.settings.destination() + ", instance "
				+ this.settings.instance() + ", " + describeMembership(this.settings) + ", transactional ids "
				+ IntStream.range(0, this.slots.size()).mapToObj(this.settings::transactionalId).toList()
				+ "; cluster " + this.cluster);
		if (this.settings.instance().carriedBy(this.settings.transactionalId())) {
			logger.warn(() -> "Worker " + this.settings.name() + ": transactional-id '"
					+ this.settings.transactionalId() + "' already ends in this pod's ordinal, so it is used as it is; "
					+ "Lockstep adds the instance itself now: a base without the ordinal gives the same ids to "
					+ "every replica's configuration");
		}
	}

	// Which membership, and why: the start-up log is where an operator looks first.
	private static String describeMembership(WorkerSettings settings) {
		WorkerSettings.Membership membership = settings.membership();
		String kind = membership.staticMembers() ? "static group members" : "dynamic group members";
		if (!membership.equals(WorkerSettings.Membership.defaultFor(settings.consumerProperties(),
				settings.instance()))) {
			return kind + " (as configured)";
		}
		if (membership.staticMembers()) {
			return kind + " (a stable instance id under the classic protocol: a restarted slot takes its place back)";
		}
		return kind + (settings.instance().isStable() ? " (the consumer group protocol's default)"
				: " (a generated instance id never comes back to a static member's place)");
	}

	/**
	 * Stop gracefully: each slot finishes its poll, commits its open transaction, closes
	 * its producer and leaves the group (or, a static member that keeps its place, stays
	 * in it: {@link WorkerSettings.Membership#leaveOnStop()}). A redrive running ends too,
	 * at its next read of the quarantine (what it committed stays). Waits at most the
	 * shutdown timeout.
	 * @return whether every slot stopped in time
	 */
	public boolean stop() {
		this.redrives.forEach(QuarantineRedrive::stop);
		this.slots.forEach(WorkerSlot::requestStop);
		boolean stopped = awaitTermination(this.settings.shutdownTimeout());
		logger.info(() -> "Worker " + this.settings.name() + (stopped ? " stopped" : " did not stop in time"));
		return stopped;
	}

	/**
	 * Wait until every slot has ended, by itself (one-shot bounds, fencing, failure) or
	 * after {@link #stop()}.
	 * @param timeout the longest wait
	 * @return whether every slot ended
	 */
	public boolean awaitTermination(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		for (Thread thread : threadsSnapshot()) {
			long left = deadline - System.nanoTime();
			try {
				thread.join(Math.max(1, left / 1_000_000));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
			if (thread.isAlive()) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Pause every slot: each commits its open transaction and stops fetching, staying in
	 * its group. State PAUSED until {@link #resume()}.
	 */
	public void pause() {
		this.slots.forEach((slot) -> slot.requestPause(true));
		logger.info(() -> "Worker " + this.settings.name() + " pause requested");
	}

	/**
	 * Resume every paused slot.
	 */
	public void resume() {
		this.slots.forEach((slot) -> slot.requestPause(false));
		logger.info(() -> "Worker " + this.settings.name() + " resume requested");
	}

	/**
	 * Move the worker's input while it runs, as {@code kafka-consumer-groups
	 * --reset-offsets} would with the group stopped: each slot applies the reset to the
	 * partitions it owns at its next transaction boundary and logs what moved (a reset
	 * asked again before a slot applied the last one replaces it there). Partitions other
	 * instances of the group own are not moved by this one.
	 * @param reset where to move, and who asked
	 */
	public void resetOffsets(OffsetReset reset) {
		this.slots.forEach((slot) -> slot.requestReset(reset));
		logger.warn(() -> "Worker " + this.settings.name() + ": " + reset.requestedBy() + " asked to reset offsets to "
				+ reset.target() + ((reset.target() == OffsetReset.Target.TIMESTAMP) ? " " + reset.timestamp()
						: (reset.target() == OffsetReset.Target.OFFSET) ? " " + reset.offset() : "")
				+ (reset.partitions().isEmpty() ? "" : " for " + reset.partitions()));
	}

	/**
	 * Send the worker's quarantined records back to the source topics they were read
	 * from, on the calling thread: every record committed to the quarantine topic when the
	 * redrive starts is read, from where the worker's last redrive stopped (or from a
	 * time), and those the request selects are sent back with a redrive count header, in
	 * transactions that commit the redrive group's read offsets too, so each is sent back
	 * once however often a redrive is interrupted and asked again. A record sent back
	 * {@link Redrive#maxRedrives()} times already stays in quarantine. The worker need not
	 * be running; its slots process what was sent back as any input. A redrive that makes
	 * no progress for a minute fails, and so does one running when the worker stops.
	 * @param redrive from where, which records, and who asked
	 * @return what the redrive did
	 * @throws IllegalStateException when the worker has no quarantine topic, when the
	 * redrive made no progress for a minute, or when the worker stopped while it ran (asked
	 * again, it goes on from its last commit)
	 * @throws org.apache.kafka.common.KafkaException when the redrive fails (asked again,
	 * it goes on from its last commit)
	 */
	public RedriveResult redrive(Redrive redrive) {
		QuarantineRedrive run = new QuarantineRedrive(this.settings, redrive, this.listener);
		logger.warn(() -> "Worker " + this.settings.name() + ": " + redrive.requestedBy() + " started a redrive of "
				+ this.settings.invalidInput().quarantineTopic() + " (group " + run.groupId() + ", " + redrive + ")");
		RedriveResult result;
		this.redrives.add(run);
		try {
			result = run.run();
		}
		finally {
			this.redrives.remove(run);
		}
		logger.warn(() -> "Worker " + this.settings.name() + ": the redrive sent back " + result.redriven()
				+ " records " + result.redrivenTo() + ", kept " + result.keptByLoopGuard() + " by the loop guard, left "
				+ result.notSelected() + " not selected and " + result.unroutable() + " unroutable");
		return result;
	}

	/**
	 * Skip, on purpose, the record each BLOCKED slot is held at: it is written to the
	 * quarantine topic when one is configured, and its offset is committed inside a
	 * transaction. Slots that are not blocked are left alone.
	 * @return the records that will be skipped
	 */
	public List<SlotState.BlockedRecord> skipBlockedRecords() {
		List<SlotState.BlockedRecord> skipped = new ArrayList<>();
		for (WorkerSlot slot : this.slots) {
			SlotState.BlockedRecord record = slot.requestSkip();
			if (record != null) {
				skipped.add(record);
			}
		}
		logger.warn(() -> "Worker " + this.settings.name() + ": operator asked to skip " + skipped);
		return skipped;
	}

	/**
	 * Return whether {@link #start()} was called.
	 * @return whether the worker was started
	 */
	public boolean isStarted() {
		return this.started;
	}

	/**
	 * Return whether any slot thread is still running.
	 * @return whether the worker is running
	 */
	public boolean isRunning() {
		return threadsSnapshot().stream().anyMatch(Thread::isAlive);
	}

	/**
	 * Return a snapshot of the worker's state.
	 * @return the state
	 */
	public WorkerState state() {
		List<SlotState> slotStates = this.monitors.stream().map(SlotMonitor::snapshot).toList();
		return new WorkerState(this.settings.name(), this.settings.instance(), this.cluster,
				WorkerState.summarize(slotStates), slotStates);
	}

	/**
	 * Return the worker's settings.
	 * @return the settings
	 */
	public WorkerSettings settings() {
		return this.settings;
	}

	private synchronized List<Thread> threadsSnapshot() {
		return List.copyOf(this.threads);
	}

}
