package dev.lockstep.worker;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The names and key values of {@code lockstep.worker.process} observations; implement it
 * to change them ({@link DefaultProcessObservationConvention} is the default).
 */
public interface ProcessObservationConvention extends ObservationConvention<ProcessObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof ProcessObservationContext;
	}

}
