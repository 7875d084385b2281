package dev.lockstep.autoconfigure.observation;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.lockstep.worker.observation.RecordTrace;
import io.micrometer.tracing.Link;
import io.micrometer.tracing.Span;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * The one span of a transaction's records that arrived in sampled W3C traces
 * ({@link SampledParents#LINK}): {@code process <topic>} of kind CONSUMER, the child of
 * the first record's producer span (so that a parent-based sampler keeps it), started
 * when that record started, with a link to each other producer span among the first
 * {@value #LINK_LIMIT} records (OpenTelemetry's default limit of links per span), each
 * context linked once; {@code messaging.batch.message_count} counts every record that
 * joined (a record processed again in the same transaction each time). It is built and
 * ended once the transaction and each of those records have ended. No span is in scope
 * while a record is processed, and its outputs carry its trace headers as they are.
 */
final class LinkedSpan extends HeldTrace {

	/** The most links a span gets: OpenTelemetry's default span limit. */
	static final int LINK_LIMIT = 128;

	private final MicrometerRecordTracing tracing;

	// The parent read when the first record started, and its traceparent (not linked).
	private final Span.Builder builder;

	private final byte[] parent;

	private final String topic;

	private final String worker;

	private final String groupId;

	// The traceparent values of the first records to join, the parent's among them.
	private final AtomicReferenceArray<byte[]> traceparents = new AtomicReferenceArray<>(LINK_LIMIT + 1);

	private final AtomicInteger records = new AtomicInteger();

	private final Queue<String> failures = new ConcurrentLinkedQueue<>();

	private final AtomicInteger failed = new AtomicInteger();

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
		this.builder = tracing.parentOf(first)
			.name(tracing.spanName(first.topic()))
			.kind(Span.Kind.CONSUMER)
			.startTimestamp(ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()), TimeUnit.MICROSECONDS);
		this.parent = W3cTraceParent.value(first.headers());
		this.topic = first.topic();
		this.worker = worker;
		this.groupId = groupId;
	}

	@Override
	void recordAdded(ConsumerRecord<byte[], byte[]> record) {
		int index = this.records.getAndIncrement();
		if (index <= LINK_LIMIT) {
			this.traceparents.set(index, W3cTraceParent.value(record.headers()));
		}
	}

	@Override
	void transactionNamed(String transactionalId, long sequence) {
		this.sequence = sequence;
		this.transactionalId = transactionalId;
	}

	@Override
	void ended() {
		Set<ByteBuffer> linked = new HashSet<>();
		linked.add(ByteBuffer.wrap(this.parent));
		int joined = Math.min(this.records.get(), LINK_LIMIT + 1);
		for (int i = 0; i < joined && linked.size() <= LINK_LIMIT; i++) {
			byte[] traceparent = this.traceparents.get(i);
			if (linked.add(ByteBuffer.wrap(traceparent))) {
				this.builder.addLink(new Link(this.tracing.traceContext(traceparent)));
			}
		}
		this.failures.forEach(this.builder::event);
		Span span = MicrometerRecordTracing.tagged(this.builder.start(), this.topic, this.worker, this.groupId)
			.tag(MicrometerRecordTracing.BATCH_MESSAGE_COUNT, Integer.toString(this.records.get()));
		String transaction = this.transactionalId;
		if (transaction != null) {
			MicrometerRecordTracing.tagTransaction(span, transaction, this.sequence);
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
		// An event each, as many as links at most.
		if (this.failed.getAndIncrement() < LINK_LIMIT) {
			this.failures.add(MicrometerRecordTracing.failedEvent(failure));
		}
	}

}
