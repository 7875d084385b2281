package dev.lockstep.worker.observation;

import io.micrometer.observation.Observation;

/**
 * One transaction's {@code lockstep.worker.transaction} observation, ended with the
 * transaction.
 */
public final class TransactionObservation {

	/** For workers without observations: does nothing. */
	static final TransactionObservation NONE = new TransactionObservation(null, null);

	private final Observation observation;

	private final TransactionObservationContext context;

	TransactionObservation(Observation observation, TransactionObservationContext context) {
		this.observation = observation;
		this.context = context;
	}

	/**
	 * Stop the observation with how the transaction ended.
	 * @param result committed or given up
	 * @param records the input records it held
	 */
	public void ended(TransactionObservationContext.Result result, int records) {
		if (this.observation != null) {
			this.context.ended(result, records);
			WorkerObservations.guarded("stopping a transaction's observation", this.observation::stop);
		}
	}

}
