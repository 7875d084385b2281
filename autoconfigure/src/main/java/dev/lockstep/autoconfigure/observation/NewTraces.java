package dev.lockstep.autoconfigure.observation;

/**
 * What a new trace is started for, when records arrive without trace headers
 * ({@code lockstep.observations.new-traces}).
 */
public enum NewTraces {

	/**
	 * One per transaction of a slot: the tracer's sampler is asked once, and a sampled
	 * trace's span is shared by the transaction's records without trace headers.
	 */
	PER_TRANSACTION,

	/** One per record: the sampler is asked for each, and each sampled one gets a span. */
	PER_RECORD

}
