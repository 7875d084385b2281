package dev.lockstep.worker.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The names and key values of {@code lockstep.worker.transaction} observations;
 * implement it to change them ({@link DefaultTransactionObservationConvention} is the
 * default).
 */
public interface TransactionObservationConvention extends ObservationConvention<TransactionObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof TransactionObservationContext;
	}

}
