package dev.lockstep.worker;

import java.util.concurrent.atomic.AtomicInteger;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * Counts the OpenTelemetry spans started and not yet ended, for tests that check each
 * span a worker starts ends.
 */
final class OpenSpans implements SpanProcessor {

	private final AtomicInteger open = new AtomicInteger();

	@Override
	public void onStart(Context parentContext, ReadWriteSpan span) {
		this.open.incrementAndGet();
	}

	@Override
	public boolean isStartRequired() {
		return true;
	}

	@Override
	public void onEnd(ReadableSpan span) {
		this.open.decrementAndGet();
	}

	@Override
	public boolean isEndRequired() {
		return true;
	}

	/** Spans started and not yet ended. */
	int open() {
		return this.open.get();
	}

}
