package dev.lockstep.autoconfigure.observation;

/**
 * What the tracer's sampler does with a remote parent's decision: a parent-based sampler
 * (Spring Boot's default, for OpenTelemetry and Brave alike) keeps it, so a record's
 * {@code traceparent} can be decided from its bytes; any other is asked per record.
 *
 * @param isParentBased whether the sampler keeps a remote parent's decision
 */
record TracerSampling(boolean isParentBased) {

	/** A sampler that keeps a remote parent's decision. */
	static final TracerSampling PARENT_BASED = new TracerSampling(true);

	/** A sampler not known to keep it: the tracer decides each record. */
	static final TracerSampling UNKNOWN = new TracerSampling(false);

}
