package dev.lockstep.autoconfigure.observation;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.lockstep.worker.RecordTrace;
import io.micrometer.tracing.Link;
import io.micrometer.tracing.Span;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * The one span of a transaction's records that arrived in sampled W3C traces
 * ({@link SampledParents#LINK}), built once the transaction and each of those records
 * have ended: {@code process <topic>} of kind CONSUMER, started when the first of them
 * started, the child of that record's producer span (so that a parent-based sampler keeps
 * it), with a link to each other record's (up to {@value #LINK_LIMIT}, OpenTelemetry's
 * default limit of links per span; {@code messaging.batch.message_count} counts them
 * all). A record costs a reference to its {@code traceparent} bytes: no span is in scope
 * while it is processed, and its outputs carry its trace headers as they are.
 */
final class LinkedSpan extends HeldTrace {

	/** The most links a span gets: OpenTelemetry's default span limit. */
	static final int LINK_LIMIT = 128;

	private final MicrometerRecordTracing tracing;

	private final ConsumerRecord<byte[], byte[]> first;

	private final byte[] parent;

	private final String worker;

	private final String groupId;

	private final long startedMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());

	// The traceparent values of the first records to join, the parent's among them.
	private final AtomicReferenceArray<byte[]> traceparents = new AtomicReferenceArray<>(LINK_LIMIT + 1);

	private final AtomicInteger records = new AtomicInteger();

	private final Queue<String> failures = new ConcurrentLinkedQueue<>();

	private volatile String transactionalId;

	private volatile long sequence;

	/**
	 * @param tracing the tracing that builds the span
	 * @param first the record whose producer span is the span's parent: one in a sampled
	 * W3C trace
	 * @param worker the worker's name
	 * @param groupId the worker's consumer group
	 */
	LinkedSpan(MicrometerRecordTracing tracing, ConsumerRecord<byte[], byte[]> first, String worker,
			String groupId) {
		this.tracing = tracing;
		this.first = first;
		this.parent = W3cTraceParent.value(first.headers());
		this.worker = worker;
		this.groupId = groupId;
	}

	@Override
	void added(ConsumerRecord<byte[], byte[]> record) {
		int index = this.records.getAndIncrement();
		if (index <= LINK_LIMIT) {
			this.traceparents.set(index, W3cTraceParent.value(record.headers()));
		}
	}

	@Override
	void named(String transactionalId, long sequence) {
		this.sequence = sequence;
		this.transactionalId = transactionalId;
	}

	@Override
	void ended() {
		Span.Builder builder = this.tracing.parentOf(this.first)
			.name(this.tracing.spanName(this.first.topic()))
			.kind(Span.Kind.CONSUMER)
			.startTimestamp(this.startedMicros, TimeUnit.MICROSECONDS);
		int joined = Math.min(this.records.get(), LINK_LIMIT + 1);
		for (int i = 0, links = 0; i < joined && links < LINK_LIMIT; i++) {
			byte[] traceparent = this.traceparents.get(i);
			if (traceparent != this.parent) {
				builder.addLink(new Link(this.tracing.traceContext(traceparent)));
				links++;
			}
		}
		this.failures.forEach(builder::event);
		Span span = MicrometerRecordTracing.tagged(builder.start(), this.first.topic(), this.worker, this.groupId)
			.tag("messaging.batch.message_count", Integer.toString(this.records.get()));
		String transaction = this.transactionalId;
		if (transaction != null) {
			span.tag("lockstep.transaction.id", transaction)
				.tag("lockstep.transaction.sequence", Long.toString(this.sequence));
		}
		span.end();
	}

	@Override
	void abandon() {
		// Nothing was started.
	}

	@Override
	RecordTrace.Scope openScope() {
		return RecordTrace.Scope.NONE;
	}

	@Override
	void inject(ConsumerRecord<byte[], byte[]> input, Headers output) {
		this.tracing.passThrough().inject(input, output);
	}

	@Override
	void failed(Throwable failure) {
		this.failures.add("record failed: " + failure.getClass().getName());
	}

}
