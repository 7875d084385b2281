package dev.lockstep.autoconfigure.observation;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lockstep.worker.observation.RecordTrace;
import dev.lockstep.worker.observation.SlotTracing;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.extension.trace.propagation.B3Propagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Which records {@link MicrometerRecordTracing} traces, with the OpenTelemetry SDK behind
 * Micrometer Tracing's bridge: decided from the {@code traceparent} bytes under a
 * parent-based sampler, by the tracer otherwise; and what each output carries.
 */
class MicrometerRecordTracingTests {

	private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

	private static final String PARENT_ID = "00f067aa0ba902b7";

	private InMemorySpanExporter spans;

	private OpenTelemetrySdk openTelemetry;

	@AfterEach
	void close() {
		this.openTelemetry.close();
	}

	@Test
	void anUnsampledParentGetsNoSpanAndItsOutputsTheInputsHeaderObjects() {
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.alwaysOn()), true);
		ConsumerRecord<byte[], byte[]> input = record("traceparent", traceparent("00"), "tracestate", "k=v");
		RecordTrace trace = tracing.start(input, "w", "g");
		Headers carried = new RecordHeaders(input.headers().toArray());
		Headers replaced = new RecordHeaders().add("traceparent", bytes(traceparent("01")));
		trace.inject(input, carried);
		trace.inject(input, replaced);
		trace.end();
		for (Headers output : List.of(carried, replaced)) {
			assertThat(output.headers("traceparent")).singleElement()
				.isSameAs(input.headers().lastHeader("traceparent"));
			assertThat(output.headers("tracestate")).singleElement().isSameAs(input.headers().lastHeader("tracestate"));
		}
		assertThat(this.spans.getFinishedSpanItems()).isEmpty();
		assertThat(tracing.start(record("traceparent", traceparent("00")), "w", "g")).as("one instance for all")
			.isSameAs(trace);
	}

	@Test
	void aSampledParentGetsASpanOfItsTraceWhichTheOutputCarries() {
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.alwaysOff()), true);
		ConsumerRecord<byte[], byte[]> input = record("traceparent", traceparent("01"));
		Headers output = new RecordHeaders(input.headers().toArray());
		RecordTrace trace = tracing.start(input, "orders-worker", "orders-group");
		trace.inject(input, output);
		trace.joined("tx-0", 3);
		trace.end();
		trace.end();
		SpanData span = this.spans.getFinishedSpanItems().get(0);
		assertThat(this.spans.getFinishedSpanItems()).hasSize(1);
		assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
		assertThat(span.getParentSpanId()).isEqualTo(PARENT_ID);
		assertThat(span.getName()).isEqualTo("process in");
		assertThat(span.getAttributes().asMap()).hasSize(9);
		assertThat(header(output, "traceparent")).isEqualTo("00-" + TRACE_ID + "-" + span.getSpanId() + "-01");
		assertThat(output.headers("traceparent")).hasSize(1);
	}

	@Test
	void anOutputWrittenOutsideTheRecordsScopeKeepsTheInputsFieldsThePropagatorDidNotWrite() {
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.alwaysOn()), true,
				TextMapPropagator.composite(W3CTraceContextPropagator.getInstance(),
						io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator.getInstance()));
		ConsumerRecord<byte[], byte[]> input = record("traceparent", traceparent("01"), "baggage", "tenant=a");
		RecordTrace trace = tracing.start(input, "w", "g");
		Headers output = new RecordHeaders();
		trace.inject(input, output);
		trace.end();
		assertThat(header(output, "traceparent")).startsWith("00-" + TRACE_ID + "-").endsWith("-01");
		assertThat(output.headers("baggage")).singleElement().isSameAs(input.headers().lastHeader("baggage"));
	}

	@Test
	void aRecordWithoutContextIsDecidedByTheTracersSamplerAndGetsNoHeaderWhenNotSampled() {
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.traceIdRatioBased(0)), true);
		ConsumerRecord<byte[], byte[]> input = record();
		RecordTrace trace = tracing.start(input, "w", "g");
		Headers output = new RecordHeaders();
		trace.inject(input, output);
		trace.end();
		assertThat(trace).isSameAs(RecordTrace.NONE);
		assertThat(output.toArray()).isEmpty();
		assertThat(this.spans.getFinishedSpanItems()).isEmpty();

		this.openTelemetry.close();
		tracing = tracing(Sampler.parentBased(Sampler.alwaysOn()), true);
		trace = tracing.start(input, "w", "g");
		trace.inject(input, output);
		trace.end();
		SpanData root = this.spans.getFinishedSpanItems().get(0);
		assertThat(root.getParentSpanContext().isValid()).isFalse();
		assertThat(header(output, "traceparent")).isEqualTo("00-" + root.getTraceId() + "-" + root.getSpanId() + "-01");
	}

	@Test
	void aSamplerThatIsNotParentBasedDecidesEveryRecordItself() {
		MicrometerRecordTracing tracing = tracing(Sampler.alwaysOn(), false);
		ConsumerRecord<byte[], byte[]> input = record("traceparent", traceparent("00"));
		RecordTrace trace = tracing.start(input, "w", "g");
		trace.end();
		assertThat(this.spans.getFinishedSpanItems()).singleElement()
			.satisfies((span) -> assertThat(span.getTraceId()).isEqualTo(TRACE_ID));
	}

	@Test
	void anInvalidTraceparentIsLeftToThePropagatorWhichStartsANewTrace() {
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.alwaysOn()), true);
		ConsumerRecord<byte[], byte[]> input = record("traceparent", traceparent("00").toUpperCase());
		tracing.start(input, "w", "g").end();
		assertThat(this.spans.getFinishedSpanItems()).singleElement().satisfies((span) -> {
			assertThat(span.getTraceId()).isNotEqualToIgnoringCase(TRACE_ID);
			assertThat(span.getParentSpanContext().isValid()).isFalse();
		});
	}

	@Test
	void otherPropagationIsReadByThePropagatorAndAnUnsampledRecordPassesItOn() {
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.alwaysOn()), true,
				B3Propagator.injectingSingleHeader());
		ConsumerRecord<byte[], byte[]> unsampled = record("b3", TRACE_ID + "-" + PARENT_ID + "-0");
		Headers output = new RecordHeaders();
		RecordTrace trace = tracing.start(unsampled, "w", "g");
		trace.inject(unsampled, output);
		trace.end();
		assertThat(this.spans.getFinishedSpanItems()).isEmpty();
		assertThat(output.lastHeader("b3")).isSameAs(unsampled.headers().lastHeader("b3"));

		ConsumerRecord<byte[], byte[]> sampled = record("b3", TRACE_ID + "-" + PARENT_ID + "-1");
		trace = tracing.start(sampled, "w", "g");
		trace.inject(sampled, output);
		trace.end();
		SpanData span = this.spans.getFinishedSpanItems().get(0);
		assertThat(span.getParentSpanId()).isEqualTo(PARENT_ID);
		assertThat(header(output, "b3")).isEqualTo(TRACE_ID + "-" + span.getSpanId() + "-1");
	}

	@Test
	void withLogCorrelationAnUnsampledRecordGetsAScopeOfItsTraceButNoRecordedSpan() {
		OtelTracer[] tracer = new OtelTracer[1];
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.alwaysOn()), true, null, true,
				tracer);
		ConsumerRecord<byte[], byte[]> input = record("traceparent", traceparent("00"));
		RecordTrace trace = tracing.start(input, "w", "g");
		try (RecordTrace.Scope scope = trace.openScope()) {
			assertThat(tracer[0].currentSpan().context().traceId()).isEqualTo(TRACE_ID);
		}
		assertThat(tracer[0].currentSpan()).isNull();
		Headers output = new RecordHeaders();
		trace.inject(input, output);
		trace.end();
		assertThat(output.lastHeader("traceparent")).as("what it would carry without a scope")
			.isSameAs(input.headers().lastHeader("traceparent"));
		assertThat(this.spans.getFinishedSpanItems()).isEmpty();
	}

	@Test
	void recordsWithoutContextShareOneTracePerTransactionThatEndsOnceTheTransactionAndItsRecordsHave() {
		OtelTracer[] tracer = new OtelTracer[1];
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.alwaysOn()), true, null, false, tracer,
				NewTraces.PER_TRANSACTION);
		SlotTracing slot = tracing.slot("orders-worker", "orders-group");
		ConsumerRecord<byte[], byte[]> input = record();
		RecordTrace first = slot.start(input);
		RecordTrace second = slot.start(input);
		Headers firstOutput = new RecordHeaders().add("traceparent", bytes(traceparent("01")));
		Headers secondOutput = new RecordHeaders();
		first.inject(input, firstOutput);
		second.inject(input, secondOutput);
		String sharedSpanId;
		try (RecordTrace.Scope scope = second.openScope()) {
			sharedSpanId = tracer[0].currentSpan().context().spanId();
		}
		first.joined("tx-0", 1);
		second.joined("tx-0", 1);
		first.end();
		slot.transactionEnded();
		assertThat(this.spans.getFinishedSpanItems()).as("held by the second record").isEmpty();
		second.end();
		SpanData shared = this.spans.getFinishedSpanItems().get(0);
		assertThat(this.spans.getFinishedSpanItems()).hasSize(1);
		assertThat(shared.getSpanId()).isEqualTo(sharedSpanId);
		assertThat(shared.getParentSpanContext().isValid()).isFalse();
		assertThat(shared.getName()).isEqualTo("process in");
		assertThat(shared.getAttributes().get(AttributeKey.stringKey("messaging.batch.message_count"))).isEqualTo("2");
		assertThat(shared.getAttributes().get(AttributeKey.stringKey("lockstep.transaction.sequence"))).isEqualTo("1");
		assertThat(shared.getAttributes().get(AttributeKey.stringKey("messaging.consumer.group.name")))
			.isEqualTo("orders-group");
		String context = "00-" + shared.getTraceId() + "-" + shared.getSpanId() + "-01";
		assertThat(header(firstOutput, "traceparent")).isEqualTo(context);
		assertThat(firstOutput.headers("traceparent")).hasSize(1);
		assertThat(header(secondOutput, "traceparent")).isEqualTo(context);

		// The next transaction's records share a new trace; a record with context keeps its own.
		RecordTrace next = slot.start(input);
		RecordTrace parented = slot.start(record("traceparent", traceparent("01")));
		next.end();
		parented.end();
		slot.transactionEnded();
		assertThat(this.spans.getFinishedSpanItems()).hasSize(3)
			.filteredOn((span) -> span.getParentSpanContext().isValid())
			.singleElement()
			.satisfies((span) -> assertThat(span.getParentSpanId()).isEqualTo(PARENT_ID));
		assertThat(this.spans.getFinishedSpanItems()).extracting(SpanData::getTraceId).doesNotHaveDuplicates();
	}

	@Test
	void aTransactionsRecordsWithoutContextAskTheSamplerOnceAndCostNothingWhenNotSampled() {
		AtomicInteger asked = new AtomicInteger();
		Sampler counting = new Sampler() {

			@Override
			public SamplingResult shouldSample(Context parent, String traceId, String name, SpanKind kind,
					Attributes attributes, List<LinkData> links) {
				asked.incrementAndGet();
				return SamplingResult.drop();
			}

			@Override
			public String getDescription() {
				return "counting";
			}

		};
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(counting), true, null, false, new OtelTracer[1],
				NewTraces.PER_TRANSACTION);
		SlotTracing slot = tracing.slot("w", "g");
		for (int i = 0; i < 3; i++) {
			RecordTrace trace = slot.start(record());
			Headers output = new RecordHeaders();
			trace.inject(record(), output);
			trace.end();
			assertThat(trace).isSameAs(RecordTrace.NONE);
			assertThat(output.toArray()).isEmpty();
		}
		assertThat(asked).hasValue(1);
		slot.transactionEnded();
		slot.start(record()).end();
		assertThat(asked).hasValue(2);
		assertThat(this.spans.getFinishedSpanItems()).isEmpty();
	}

	@Test
	void aClosedSlotStartsNoNewTraceAndEndsItsLastOnceItsRecordsHave() {
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.alwaysOn()), true, null, false,
				new OtelTracer[1], NewTraces.PER_TRANSACTION);
		SlotTracing slot = tracing.slot("w", "g");
		RecordTrace held = slot.start(record());
		slot.close();
		assertThat(slot.start(record())).isSameAs(RecordTrace.NONE);
		assertThat(this.spans.getFinishedSpanItems()).isEmpty();
		held.end();
		held.end();
		assertThat(this.spans.getFinishedSpanItems()).singleElement()
			.satisfies((span) -> assertThat(span.getAttributes()
				.get(AttributeKey.stringKey("messaging.batch.message_count"))).isEqualTo("1"));
	}

	@Test
	void withLogCorrelationATransactionsUnsampledTraceIsAScopeForTheLogsOnly() {
		OtelTracer[] tracer = new OtelTracer[1];
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.traceIdRatioBased(0)), true, null, true,
				tracer, NewTraces.PER_TRANSACTION);
		SlotTracing slot = tracing.slot("w", "g");
		ConsumerRecord<byte[], byte[]> input = record();
		RecordTrace first = slot.start(input);
		RecordTrace second = slot.start(input);
		String[] traceIds = new String[2];
		try (RecordTrace.Scope scope = first.openScope()) {
			traceIds[0] = tracer[0].currentSpan().context().traceId();
		}
		try (RecordTrace.Scope scope = second.openScope()) {
			traceIds[1] = tracer[0].currentSpan().context().traceId();
		}
		Headers output = new RecordHeaders();
		first.inject(input, output);
		first.end();
		second.end();
		slot.transactionEnded();
		assertThat(traceIds[0]).matches("[0-9a-f]{32}").isEqualTo(traceIds[1]);
		assertThat(output.toArray()).isEmpty();
		assertThat(this.spans.getFinishedSpanItems()).isEmpty();
	}

	@Test
	void withLinksATransactionsRecordsInSampledTracesShareOneSpanChildOfTheFirstAndLinkedToTheOthers() {
		OtelTracer[] tracer = new OtelTracer[1];
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.traceIdRatioBased(0)), true, null,
				false, tracer, NewTraces.PER_TRANSACTION, SampledParents.LINK);
		SlotTracing slot = tracing.slot("orders-worker", "orders-group");
		ConsumerRecord<byte[], byte[]> first = record("traceparent", traceparent(1, "01"), "tracestate", "k=v");
		ConsumerRecord<byte[], byte[]> second = record("traceparent", traceparent(2, "01"));
		ConsumerRecord<byte[], byte[]> failed = record("traceparent", traceparent(3, "01"));
		long before = System.currentTimeMillis();
		RecordTrace firstTrace = slot.start(first);
		long firstStarted = System.currentTimeMillis();
		// The span starts with the first record, not when it is built.
		await().until(() -> System.currentTimeMillis() > firstStarted + 5);
		RecordTrace secondTrace = slot.start(second);
		RecordTrace failedTrace = slot.start(failed);
		RecordTrace unsampled = slot.start(record("traceparent", traceparent(4, "00")));
		RecordTrace parentless = slot.start(record());
		// No span while a record is processed; its outputs carry its trace headers as they are.
		try (RecordTrace.Scope scope = secondTrace.openScope()) {
			assertThat(tracer[0].currentSpan()).isNull();
		}
		Headers replaced = new RecordHeaders().add("traceparent", bytes(traceparent(9, "01")));
		Headers carried = new RecordHeaders(first.headers().toArray());
		firstTrace.inject(first, replaced);
		firstTrace.inject(first, carried);
		for (Headers output : List.of(replaced, carried)) {
			assertThat(output.headers("traceparent")).singleElement().isSameAs(first.headers().lastHeader("traceparent"));
			assertThat(output.headers("tracestate")).singleElement().isSameAs(first.headers().lastHeader("tracestate"));
		}
		failedTrace.error(new IllegalStateException("bad"));
		// The first to join a Kafka transaction names it.
		for (RecordTrace trace : List.of(secondTrace, firstTrace, unsampled, parentless)) {
			trace.joined("tx-0", 4);
		}
		failedTrace.joined("tx-0", 5);
		firstTrace.end();
		secondTrace.end();
		unsampled.end();
		parentless.end();
		slot.transactionEnded();
		assertThat(this.spans.getFinishedSpanItems()).as("held by the failed record").isEmpty();
		failedTrace.end();
		failedTrace.end();

		SpanData span = this.spans.getFinishedSpanItems().get(0);
		assertThat(this.spans.getFinishedSpanItems()).hasSize(1);
		assertThat(span.getName()).isEqualTo("process in");
		assertThat(span.getKind()).isEqualTo(SpanKind.CONSUMER);
		assertThat(span.getTraceId()).isEqualTo(traceId(1));
		assertThat(span.getParentSpanId()).isEqualTo(parentId(1));
		assertThat(span.getParentSpanContext().getTraceState().get("k")).as("the parent's tracestate").isEqualTo("v");
		assertThat(span.getLinks()).extracting((link) -> link.getSpanContext().getTraceId())
			.containsExactlyInAnyOrder(traceId(2), traceId(3));
		assertThat(span.getLinks()).extracting((link) -> link.getSpanContext().getSpanId())
			.containsExactlyInAnyOrder(parentId(2), parentId(3));
		assertThat(span.getStartEpochNanos() / 1_000_000).as("started with the first record")
			.isBetween(before, firstStarted);
		assertThat(span.getEndEpochNanos() / 1_000_000).isGreaterThan(firstStarted + 5);
		assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.batch.message_count"))).isEqualTo("3");
		assertThat(span.getAttributes().get(AttributeKey.stringKey("lockstep.transaction.id"))).isEqualTo("tx-0");
		assertThat(span.getAttributes().get(AttributeKey.stringKey("lockstep.transaction.sequence"))).isEqualTo("4");
		assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.consumer.group.name")))
			.isEqualTo("orders-group");
		assertThat(span.getAttributes().get(AttributeKey.stringKey("lockstep.worker"))).isEqualTo("orders-worker");
		assertThat(span.getEvents()).singleElement()
			.satisfies((event) -> assertThat(event.getName())
				.isEqualTo("record failed: " + IllegalStateException.class.getName()));

		// The next transaction gets a span of its own; a closed slot passes the headers on.
		slot.start(second).end();
		slot.close();
		assertThat(this.spans.getFinishedSpanItems()).hasSize(2);
		assertThat(this.spans.getFinishedSpanItems().get(1).getParentSpanId()).isEqualTo(parentId(2));
		assertThat(this.spans.getFinishedSpanItems().get(1).getLinks()).isEmpty();
		RecordTrace afterClose = slot.start(first);
		Headers output = new RecordHeaders();
		afterClose.inject(first, output);
		afterClose.end();
		assertThat(output.lastHeader("traceparent")).isSameAs(first.headers().lastHeader("traceparent"));
		assertThat(this.spans.getFinishedSpanItems()).hasSize(2);
	}

	@Test
	void aLinkedSpanLinksAtMostOpenTelemetrysLimitAndCountsEveryRecord() {
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.alwaysOff()), true, null, false,
				new OtelTracer[1], NewTraces.PER_RECORD, SampledParents.LINK);
		SlotTracing slot = tracing.slot("w", "g");
		for (int i = 1; i <= 200; i++) {
			slot.start(record("traceparent", traceparent(i, "01"))).end();
		}
		slot.transactionEnded();
		SpanData span = this.spans.getFinishedSpanItems().get(0);
		assertThat(this.spans.getFinishedSpanItems()).hasSize(1);
		assertThat(span.getParentSpanId()).isEqualTo(parentId(1));
		assertThat(span.getLinks()).hasSize(128)
			.extracting((link) -> link.getSpanContext().getSpanId())
			.containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.rangeClosed(2, 129)
				.mapToObj(MicrometerRecordTracingTests::parentId)
				.toList());
		assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.batch.message_count"))).isEqualTo("200");
	}

	@Test
	void aLinkedSpanLinksEachContextOnceAndNeverItsParent() {
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.alwaysOff()), true, null, false,
				new OtelTracer[1], NewTraces.PER_RECORD, SampledParents.LINK);
		SlotTracing slot = tracing.slot("w", "g");
		// Records of one producer span (a fan-out), and the parent's context again.
		for (int trace : new int[] { 1, 2, 2, 1, 3, 2 }) {
			slot.start(record("traceparent", traceparent(trace, "01"))).end();
		}
		slot.transactionEnded();
		SpanData span = this.spans.getFinishedSpanItems().get(0);
		assertThat(span.getParentSpanId()).isEqualTo(parentId(1));
		assertThat(span.getLinks()).extracting((link) -> link.getSpanContext().getSpanId())
			.containsExactlyInAnyOrder(parentId(2), parentId(3));
		assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.batch.message_count"))).isEqualTo("6");
	}

	@Test
	void withLinksRecordsWithoutContextAndRecordsStartedOutsideASlotGetSpansOfTheirOwn() {
		MicrometerRecordTracing tracing = tracing(Sampler.parentBased(Sampler.alwaysOn()), true, null, false,
				new OtelTracer[1], NewTraces.PER_RECORD, SampledParents.LINK);
		// Per record: a record without context asks the sampler for a root span of its own.
		tracing.slot("w", "g").start(record()).end();
		// Without a slot's transactions, a sampled parent's record gets a span of its own.
		tracing.start(record("traceparent", traceparent(1, "01")), "w", "g").end();
		assertThat(this.spans.getFinishedSpanItems()).hasSize(2)
			.allSatisfy((span) -> assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.kafka.offset")))
				.isEqualTo("7"));
		assertThat(this.spans.getFinishedSpanItems().get(0).getParentSpanContext().isValid()).isFalse();
		assertThat(this.spans.getFinishedSpanItems().get(1).getParentSpanId()).isEqualTo(parentId(1));
	}

	@Test
	void withLinksASamplerThatIsNotParentBasedStillGivesEachRecordItsOwnSpan() {
		MicrometerRecordTracing tracing = tracing(Sampler.alwaysOn(), false, null, false, new OtelTracer[1],
				NewTraces.PER_RECORD, SampledParents.LINK);
		SlotTracing slot = tracing.slot("w", "g");
		slot.start(record("traceparent", traceparent(1, "01"))).end();
		assertThat(this.spans.getFinishedSpanItems()).singleElement().satisfies((span) -> {
			assertThat(span.getParentSpanId()).isEqualTo(parentId(1));
			assertThat(span.getLinks()).isEmpty();
			assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.kafka.offset"))).isEqualTo("7");
		});
	}

	private MicrometerRecordTracing tracing(Sampler sampler, boolean parentBased) {
		return tracing(sampler, parentBased, null);
	}

	private MicrometerRecordTracing tracing(Sampler sampler, boolean parentBased, TextMapPropagator propagation) {
		return tracing(sampler, parentBased, propagation, false, new OtelTracer[1]);
	}

	private MicrometerRecordTracing tracing(Sampler sampler, boolean parentBased, TextMapPropagator propagation,
			boolean correlate, OtelTracer[] tracer) {
		return tracing(sampler, parentBased, propagation, correlate, tracer, NewTraces.PER_RECORD);
	}

	private MicrometerRecordTracing tracing(Sampler sampler, boolean parentBased, TextMapPropagator propagation,
			boolean correlate, OtelTracer[] tracer, NewTraces newTraces) {
		return tracing(sampler, parentBased, propagation, correlate, tracer, newTraces, SampledParents.SPAN);
	}

	private MicrometerRecordTracing tracing(Sampler sampler, boolean parentBased, TextMapPropagator propagation,
			boolean correlate, OtelTracer[] tracer, NewTraces newTraces, SampledParents sampledParents) {
		// A closed SDK shuts its exporter down: a new pair per tracing.
		this.spans = InMemorySpanExporter.create();
		this.openTelemetry = OpenTelemetrySdk.builder()
			.setTracerProvider(SdkTracerProvider.builder()
				.addSpanProcessor(SimpleSpanProcessor.create(this.spans))
				.setSampler(sampler)
				.build())
			.setPropagators(ContextPropagators
				.create((propagation != null) ? propagation : W3CTraceContextPropagator.getInstance()))
			.build();
		tracer[0] = tracer();
		return new MicrometerRecordTracing(tracer[0],
				new OtelPropagator(this.openTelemetry.getPropagators(), this.openTelemetry.getTracer("test")),
				parentBased, correlate, newTraces, sampledParents);
	}

	private OtelTracer tracer() {
		OtelCurrentTraceContext current = new OtelCurrentTraceContext();
		return new OtelTracer(this.openTelemetry.getTracer("test"), current, (event) -> {
		}, new OtelBaggageManager(current, List.of(), List.of()));
	}

	private static String traceparent(int trace, String flags) {
		return "00-" + traceId(trace) + "-" + parentId(trace) + "-" + flags;
	}

	private static String traceId(int trace) {
		return TRACE_ID.substring(0, 24) + String.format("%08x", trace);
	}

	private static String parentId(int trace) {
		return PARENT_ID.substring(0, 8) + String.format("%08x", trace);
	}

	private static String traceparent(String flags) {
		return "00-" + TRACE_ID + "-" + PARENT_ID + "-" + flags;
	}

	private static ConsumerRecord<byte[], byte[]> record(String... headers) {
		ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("in", 2, 7, bytes("k"), bytes("v"));
		for (int i = 0; i < headers.length; i += 2) {
			record.headers().add(headers[i], bytes(headers[i + 1]));
		}
		return record;
	}

	private static String header(Headers headers, String key) {
		Header header = headers.lastHeader(key);
		return (header != null) ? new String(header.value(), StandardCharsets.UTF_8) : null;
	}

	private static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

}
