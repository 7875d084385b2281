package dev.lockstep.worker.observation;

import java.util.Locale;

import io.micrometer.common.KeyValues;

/**
 * The default {@link TransactionObservationConvention}: {@code messaging.system}, the
 * worker's name and the result (once known) as low-cardinality key values; the
 * transactional id, the sequence number and the record count as high-cardinality ones.
 * Span name: {@code transaction <transactional id>}.
 */
public class DefaultTransactionObservationConvention implements TransactionObservationConvention {

	/** The shared instance. */
	public static final DefaultTransactionObservationConvention INSTANCE = new DefaultTransactionObservationConvention();

	@Override
	public String getName() {
		return "lockstep.worker.transaction";
	}

	@Override
	public String getContextualName(TransactionObservationContext context) {
		return "transaction " + context.getTransactionalId();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(TransactionObservationContext context) {
		KeyValues values = KeyValues.of(WorkerObservations.MESSAGING_SYSTEM, "kafka", WorkerObservations.WORKER,
				context.getWorker());
		if (context.getResult() != null) {
			values = values.and(WorkerObservations.TRANSACTION_RESULT,
					context.getResult().name().toLowerCase(Locale.ROOT));
		}
		return values;
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(TransactionObservationContext context) {
		return KeyValues.of(WorkerObservations.TRANSACTIONAL_ID, context.getTransactionalId(),
				WorkerObservations.TRANSACTION_SEQUENCE, Long.toString(context.getSequence()),
				WorkerObservations.TRANSACTION_RECORDS, Integer.toString(context.getRecords()));
	}

}
