package dev.lockstep.autoconfigure.observation;

import java.util.regex.Pattern;

/**
 * What the tracer's sampler does with a remote parent's decision: a parent-based sampler
 * (Spring Boot's default, for OpenTelemetry and Brave alike) keeps it, so a record's
 * {@code traceparent} can be decided from its bytes; any other is asked per record.
 *
 * @param parentBased whether the sampler keeps a remote parent's decision
 */
record TracerSampling(boolean parentBased) {

	/** A sampler that keeps a remote parent's decision. */
	static final TracerSampling PARENT_BASED = new TracerSampling(true);

	/** A sampler not known to keep it: the tracer decides each record. */
	static final TracerSampling UNKNOWN = new TracerSampling(false);

	// OpenTelemetry's ParentBasedSampler describes itself as
	// ParentBased{root:...,remoteParentSampled:...,remoteParentNotSampled:...,...}.
	private static final Pattern KEEPS_REMOTE_DECISION = Pattern.compile(
			"ParentBased\\{root:.*,remoteParentSampled:AlwaysOnSampler,remoteParentNotSampled:AlwaysOffSampler,.*\\}");

	/**
	 * The sampling of an OpenTelemetry sampler, from its description.
	 * @param description the sampler's description
	 * @return parent-based for a {@code ParentBased} sampler that keeps a remote parent's
	 * decision either way (the SDK's default, and Spring Boot's), unknown otherwise
	 */
	static TracerSampling ofDescription(String description) {
		return KEEPS_REMOTE_DECISION.matcher(description).matches() ? PARENT_BASED : UNKNOWN;
	}

}
