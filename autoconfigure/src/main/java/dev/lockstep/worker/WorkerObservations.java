package dev.lockstep.worker;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.springframework.core.log.LogAccessor;

/**
 * A worker's observations: one {@code lockstep.worker.process} per record processed
 * (its parent the trace context in the record's headers), one
 * {@code lockstep.worker.transaction} per transaction, and the propagator that writes a
 * record's context into its outputs. Without a registry ({@link #NONE}) the record path
 * creates nothing.
 */
public final class WorkerObservations {

	/** No observations. */
	public static final WorkerObservations NONE = new WorkerObservations(ObservationRegistry.NOOP,
			TraceContextPropagator.NONE);

	private static final LogAccessor logger = new LogAccessor(WorkerObservations.class);

	// The first failure of an observation handler or convention is logged at WARN, the
	// rest at DEBUG: one broken handler must not flood the log once per record.
	private static final AtomicBoolean warned = new AtomicBoolean();

	static final String MESSAGING_SYSTEM = "messaging.system";

	static final String MESSAGING_OPERATION = "messaging.operation.name";

	static final String MESSAGING_DESTINATION = "messaging.destination.name";

	static final String MESSAGING_GROUP = "messaging.consumer.group.name";

	static final String MESSAGING_PARTITION = "messaging.destination.partition.id";

	static final String MESSAGING_OFFSET = "messaging.kafka.offset";

	static final String WORKER = "lockstep.worker";

	static final String TRANSACTIONAL_ID = "lockstep.transaction.id";

	static final String TRANSACTION_SEQUENCE = "lockstep.transaction.sequence";

	static final String TRANSACTION_RECORDS = "lockstep.transaction.records";

	static final String TRANSACTION_RESULT = "lockstep.transaction.result";

	private final ObservationRegistry registry;

	private final TraceContextPropagator propagator;

	private final ProcessObservationConvention processConvention;

	private final TransactionObservationConvention transactionConvention;

	/**
	 * Create a worker's observations with the default conventions.
	 * @param registry where observations go
	 * @param propagator writes a record's trace context into its outputs
	 */
	public WorkerObservations(ObservationRegistry registry, TraceContextPropagator propagator) {
		this(registry, propagator, null, null);
	}

	/**
	 * Create a worker's observations.
	 * @param registry where observations go
	 * @param propagator writes a record's trace context into its outputs
	 * @param processConvention the process observations' convention, or {@code null} for
	 * the default
	 * @param transactionConvention the transaction observations' convention, or
	 * {@code null} for the default
	 */
	public WorkerObservations(ObservationRegistry registry, TraceContextPropagator propagator,
			ProcessObservationConvention processConvention, TransactionObservationConvention transactionConvention) {
		this.registry = registry;
		this.propagator = propagator;
		this.processConvention = processConvention;
		this.transactionConvention = transactionConvention;
	}

	/**
	 * Return whether anything is observed.
	 * @return whether the registry is not the no-op one
	 */
	public boolean isEnabled() {
		return !this.registry.isNoop();
	}

	/**
	 * Start observing a record's processing.
	 * @param record the record as consumed
	 * @param settings the worker's settings
	 * @return the started observation, or {@link RecordObservation#NONE} when disabled
	 */
	RecordObservation process(ConsumerRecord<byte[], byte[]> record, WorkerSettings settings) {
		if (!isEnabled()) {
			return RecordObservation.NONE;
		}
		ProcessObservationContext context = new ProcessObservationContext(record, settings.name(),
				settings.groupId());
		// The parent is the trace context in the record's headers, never what this thread
		// happens to be doing.
		Observation observation = start(() -> Observation
			.createNotStarted(this.processConvention, DefaultProcessObservationConvention.INSTANCE, () -> context,
					this.registry)
			.parentObservation(null));
		return (observation != null) ? new RecordObservation(observation, context, this.propagator)
				: RecordObservation.NONE;
	}

	/**
	 * Start observing a transaction. Called outside any record's scope: a transaction's
	 * trace is its own, joined to its records' by the transactional id and sequence.
	 * @param slot the slot
	 * @param sequence the transaction's sequence number
	 * @return the started observation, or {@link TransactionObservation#NONE} when disabled
	 */
	TransactionObservation transaction(SlotId slot, long sequence) {
		if (!isEnabled()) {
			return TransactionObservation.NONE;
		}
		TransactionObservationContext context = new TransactionObservationContext(slot.worker(),
				slot.transactionalId(), sequence);
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
			if (warned.compareAndSet(false, true)) {
				logger.warn(ex, () -> "Observation failed " + what + " (further failures are logged at DEBUG)");
			}
			else {
				logger.debug(ex, () -> "Observation failed " + what);
			}
		}
	}

}
