package dev.lockstep.worker;

import io.micrometer.observation.Observation;
import org.apache.kafka.common.header.Headers;

/**
 * Writes the trace context of a record's {@code lockstep.worker.process} observation into
 * the headers of each of its outputs, so the next hop continues the trace. The runtime
 * knows no tracer: the auto-configuration supplies one over Micrometer Tracing.
 */
@FunctionalInterface
public interface TraceContextPropagator {

	/** Writes nothing. */
	TraceContextPropagator NONE = (process, headers) -> {
	};

	/**
	 * Write the trace context of a process observation into an output's headers,
	 * replacing any the output carries (such as the input's, copied over).
	 * @param process the process observation's context
	 * @param headers the output's headers
	 */
	void inject(Observation.ContextView process, Headers headers);

}
