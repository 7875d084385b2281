package dev.lockstep.worker.observation;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.core.log.LogAccessor;

/**
 * A worker's observations: each record's {@link RecordTrace} (a span only for records
 * that are sampled, its parent the trace context in the record's headers), one
 * {@code lockstep.worker.transaction} observation per transaction. Without a registry
 * and tracing ({@link #NONE}) nothing is created.
 */
public final class WorkerObservations {

	/** No observations. */
	public static final WorkerObservations NONE = new WorkerObservations(ObservationRegistry.NOOP,
			RecordTracing.NONE);

	private static final LogAccessor logger = new LogAccessor(WorkerObservations.class);

	private static final AtomicBoolean warned = new AtomicBoolean();

	static final String MESSAGING_SYSTEM = "messaging.system";

	static final String WORKER = "lockstep.worker";

	static final String TRANSACTIONAL_ID = "lockstep.transaction.id";

	static final String TRANSACTION_SEQUENCE = "lockstep.transaction.sequence";

	static final String TRANSACTION_RECORDS = "lockstep.transaction.records";

	static final String TRANSACTION_RESULT = "lockstep.transaction.result";

	private final ObservationRegistry registry;

	private final RecordTracing tracing;

	private final TransactionObservationConvention transactionConvention;

	/**
	 * Create a worker's observations with the default transaction convention.
	 * @param registry where transaction observations go
	 * @param tracing decides which records are traced and traces them
	 */
	public WorkerObservations(ObservationRegistry registry, RecordTracing tracing) {
		this(registry, tracing, null);
	}

	/**
	 * Create a worker's observations.
	 * @param registry where transaction observations go
	 * @param tracing decides which records are traced and traces them
	 * @param transactionConvention the transaction observations' convention, or
	 * {@code null} for the default
	 */
	public WorkerObservations(ObservationRegistry registry, RecordTracing tracing,
			TransactionObservationConvention transactionConvention) {
		this.registry = registry;
		this.tracing = tracing;
		this.transactionConvention = transactionConvention;
	}

	/**
	 * Return whether anything is observed.
	 * @return whether transactions are observed or records traced
	 */
	public boolean isEnabled() {
		return !this.registry.isNoop() || this.tracing != RecordTracing.NONE;
	}

	/**
	 * Return the tracing of one slot's records, guarded: tracing never fails a record.
	 * @param worker the worker's name
	 * @param groupId the worker's consumer group
	 * @return the slot's tracing; one that traces nothing when the tracing failed to give
	 * one
	 */
	public SlotTracing slot(String worker, String groupId) {
		try {
			return new GuardedSlotTracing(this.tracing.slot(worker, groupId));
		}
		catch (RuntimeException ex) {
			logFailure("starting a slot's tracing", ex);
			return SlotTracing.NONE;
		}
	}

	/**
	 * Start observing a transaction. Called outside any record's scope: a transaction's
	 * trace is its own, joined to its records' by the transactional id and sequence.
	 * @param worker the worker's name
	 * @param transactionalId the slot's transactional id
	 * @param sequence the transaction's sequence number
	 * @return the started observation; one that observes nothing when disabled
	 */
	public TransactionObservation transaction(String worker, String transactionalId, long sequence) {
		if (this.registry.isNoop()) {
			return TransactionObservation.NONE;
		}
		TransactionObservationContext context = new TransactionObservationContext(worker, transactionalId,
				sequence);
		Observation observation = start(() -> Observation
			.createNotStarted(this.transactionConvention, DefaultTransactionObservationConvention.INSTANCE,
					() -> context, this.registry)
			.parentObservation(null));
		return (observation != null) ? new TransactionObservation(observation, context) : TransactionObservation.NONE;
	}

	private static Observation start(Supplier<Observation> observation) {
		Observation[] started = { null };
		guarded("starting an observation", () -> started[0] = observation.get().start());
		return started[0];
	}

	/**
	 * Run an observation call; what a handler or convention throws is logged, never
	 * passed on: observing a record must not fail it.
	 * @param what the call, for the log
	 * @param call the call
	 */
	static void guarded(String what, Runnable call) {
		try {
			call.run();
		}
		catch (RuntimeException ex) {
			logFailure(what, ex);
		}
	}

	// What observing or tracing code threw, instead of failing the record: the first
	// failure at WARN, the rest at DEBUG, so one broken handler does not flood the log.
	static void logFailure(String what, RuntimeException ex) {
		if (warned.compareAndSet(false, true)) {
			logger.warn(ex, () -> "Observation failed " + what + " (further failures are logged at DEBUG)");
		}
		else {
			logger.debug(ex, () -> "Observation failed " + what);
		}
	}

}
