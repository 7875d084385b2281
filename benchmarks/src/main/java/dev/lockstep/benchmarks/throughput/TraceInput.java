package dev.lockstep.benchmarks.throughput;

import java.nio.charset.StandardCharsets;

/**
 * The trace context a run's input records carry: none, or a W3C {@code traceparent} of a
 * trace of their own (one per record), sampled or not by their sender.
 */
enum TraceInput {

	/** No trace headers. */
	NONE(""),

	/** A {@code traceparent} whose sender did not sample the trace ({@code -00}). */
	NOT_SAMPLED("00"),

	/** A {@code traceparent} whose sender sampled the trace ({@code -01}). */
	SAMPLED("01");

	private final String flags;

	TraceInput(String flags) {
		this.flags = flags;
	}

	/** The topic name suffix of inputs seeded with this context. */
	String topicSuffix() {
		return (this == NONE) ? "" : "-tp" + this.flags;
	}

	/**
	 * The {@code traceparent} of an order, or {@code null} without trace headers.
	 * @param id the order's id
	 * @return the header's value
	 */
	byte[] traceparent(long id) {
		if (this == NONE) {
			return null;
		}
		return "00-%016x%016x-%016x-%s".formatted(0x4bf92f3577b34da6L, id, 0x00f067aa0ba902b7L ^ id, this.flags)
			.getBytes(StandardCharsets.US_ASCII);
	}

}
