package dev.lockstep.benchmarks;

import java.util.Collection;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * An exporter that drops every span: tracing benchmarks pay for recording and batching
 * spans, not for a collector's network.
 */
public final class DroppingSpanExporter implements SpanExporter {

	@Override
	public CompletableResultCode export(Collection<SpanData> spans) {
		return CompletableResultCode.ofSuccess();
	}

	@Override
	public CompletableResultCode flush() {
		return CompletableResultCode.ofSuccess();
	}

	@Override
	public CompletableResultCode shutdown() {
		return CompletableResultCode.ofSuccess();
	}

}
