package dev.lockstep.autoconfigure.observation;

import java.nio.charset.StandardCharsets;

import dev.lockstep.worker.TraceContextPropagator;
import io.micrometer.observation.Observation;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import org.apache.kafka.common.header.Headers;

/**
 * Writes the span of a record's process observation into its outputs' headers with
 * Micrometer Tracing's propagator (W3C {@code traceparent}/{@code tracestate}, or
 * whatever Spring Boot's tracing is configured to produce), replacing the input's.
 */
public final class MicrometerTracingPropagator implements TraceContextPropagator {

	private final Propagator propagator;

	/**
	 * Create the propagator.
	 * @param propagator Micrometer Tracing's propagator
	 */
	public MicrometerTracingPropagator(Propagator propagator) {
		this.propagator = propagator;
	}

	@Override
	public void inject(Observation.ContextView process, Headers headers) {
		TracingObservationHandler.TracingContext tracing = process.get(TracingObservationHandler.TracingContext.class);
		Span span = (tracing != null) ? tracing.getSpan() : null;
		if (span == null) {
			return;
		}
		// The input's own fields go, even those the record's context does not set again.
		this.propagator.fields().forEach(headers::remove);
		this.propagator.inject(span.context(), headers,
				(carrier, key, value) -> carrier.add(key, value.getBytes(StandardCharsets.UTF_8)));
	}

}
