package dev.lockstep.autoconfigure.observation;

/**
 * What a record gets when it arrives in a sampled W3C trace, under a parent-based
 * sampler ({@code lockstep.observations.sampled-parents}).
 */
public enum SampledParents {

	/**
	 * A span of its own, {@code process <topic>}, child of the producer's span; its
	 * outputs continue the trace from that span.
	 */
	SPAN,

	/**
	 * A link from its transaction's span (one per transaction of a slot, the OpenTelemetry
	 * pattern for batches): that span is the child of the first such record's producer
	 * span and links to the others' (up to {@value LinkedSpan#LINK_LIMIT}); each
	 * output carries its input's trace headers as they are.
	 */
	LINK

}
