package dev.lockstep.worker;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.lockstep.autoconfigure.observation.MicrometerRecordTracing;
import dev.lockstep.autoconfigure.observation.NewTraces;
import dev.lockstep.autoconfigure.observation.SampledParents;
import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.worker.WorkerSettings.Codecs;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.Ordering;
import dev.lockstep.worker.WorkerSettings.Recovery;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import dev.lockstep.worker.observation.WorkerObservations;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker's traces with the real OpenTelemetry SDK (spans exported to memory) through
 * Micrometer Tracing's bridge, against a real broker, under every ordering: each record's
 * process span continues the trace of its {@code traceparent} header, its outputs carry
 * the process span's context, transactions are spans of their own joined to their
 * records by transactional id and sequence number, tombstones and quarantined records
 * keep their context, a record without context starts a trace, and a replay is a new span.
 */
@ExtendWith(SharedKafkaBroker.class)
class WorkerTracingTests {

	private static final Duration WAIT = Duration.ofMinutes(2);

	private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

	private static final String PARENT_SPAN_ID = "00f067aa0ba902b7";

	private static KafkaBroker broker;

	private static KafkaFixture kafka;

	private InMemorySpanExporter spans;

	// Every span started must end.
	private final OpenSpans openSpans = new OpenSpans();

	private OpenTelemetrySdk openTelemetry = openTelemetry(Sampler.alwaysOn());

	private final String input = "orders-" + UUID.randomUUID();

	private final String output = "out-" + UUID.randomUUID();

	private final String quarantine = "quarantine-" + UUID.randomUUID();

	private final String group = "group-" + UUID.randomUUID();

	private final List<Worker> workers = new ArrayList<>();

	// Every transaction observation started must end.
	private final OpenObservations observations = new OpenObservations();

	private NewTraces newTraces = NewTraces.PER_TRANSACTION;

	private SampledParents sampledParents = SampledParents.SPAN;

	@BeforeAll
	static void connect(KafkaBroker shared) {
		broker = shared;
		kafka = new KafkaFixture(broker);
	}

	@AfterEach
	void stop() {
		this.workers.forEach(Worker::stop);
		this.openTelemetry.close();
		assertThat(this.observations.open()).as("observations started and never stopped").isZero();
		assertThat(this.openSpans.open()).as("spans started and never ended").isZero();
	}

	@ParameterizedTest
	@EnumSource(Ordering.class)
	void onlySampledRecordsGetASpanAndTheOthersPassTheirTraceHeadersOn(Ordering ordering) {
		this.openTelemetry.close();
		// Spring Boot's sampler at 0 %: parent-based, no new trace sampled.
		this.openTelemetry = openTelemetry(Sampler.parentBased(Sampler.traceIdRatioBased(0)));
		kafka.createTopics(1, this.input, this.output);
		String unsampled = "00-" + TRACE_ID + "-" + PARENT_SPAN_ID + "-00";
		ProducerRecord<byte[], byte[]> k0 = record("k0", "paid", unsampled);
		k0.headers().add("tracestate", "vendor=opaque".getBytes(StandardCharsets.UTF_8));
		kafka.produce(List.of(k0, record("k1", "paid", traceparent("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331")),
				record("k2", "paid", null)));
		Worker worker = start(ordering, (ValueTransformer<String, String>) (value) -> value.toUpperCase(Locale.ROOT));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 3);
		Map<String, ConsumerRecord<byte[], byte[]>> out = byKey(kafka.readCommitted(this.output, 3));

		// Not sampled: no span; the output carries the input's trace headers byte for byte.
		assertThat(traceparentOf(out.get("k0"))).isEqualTo(unsampled);
		assertThat(out.get("k0").headers().lastHeader("tracestate").value())
			.isEqualTo("vendor=opaque".getBytes(StandardCharsets.UTF_8));
		// Sampled by its parent: a span of the same trace, which the output continues.
		assertThat(processSpans()).singleElement().satisfies((k1) -> {
			assertThat(k1.getTraceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
			assertThat(k1.getParentSpanId()).isEqualTo("b7ad6b7169203331");
			assertThat(traceparentOf(out.get("k1")))
				.isEqualTo("00-0af7651916cd43dd8448eb211c80319c-" + k1.getSpanId() + "-01");
		});
		// Without context at 0 %: no span, and no trace header made up for it.
		assertThat(out.get("k2").headers().lastHeader("traceparent")).isNull();
		assertThat(sharedSpans()).isEmpty();
	}

	private OpenTelemetrySdk openTelemetry(Sampler sampler) {
		// A closed SDK shuts its exporter down: a new pair per SDK.
		this.spans = InMemorySpanExporter.create();
		return OpenTelemetrySdk.builder()
			.setTracerProvider(SdkTracerProvider.builder()
				.addSpanProcessor(SimpleSpanProcessor.create(this.spans))
				.addSpanProcessor(this.openSpans)
				.setSampler(sampler)
				.build())
			.setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
			.build();
	}

	@ParameterizedTest
	@EnumSource(Ordering.class)
	void eachRecordContinuesItsTraceAndItsOutputCarriesTheProcessSpan(Ordering ordering) {
		this.newTraces = NewTraces.PER_RECORD;
		kafka.createTopics(1, this.input, this.output, this.quarantine);
		List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
		records.add(record("k0", "paid", traceparent(TRACE_ID, PARENT_SPAN_ID)));
		records.add(record("k1", "paid", null));
		records.add(record("k2", null, traceparent("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331")));
		records.add(record("k3", "bad", traceparent("5ce0e9a56015fec5aadfa328ae398115", "ab0b79c1e6e5b0d9")));
		kafka.produce(records);
		Worker worker = start(ordering, upperCaseRefusingBad((value) -> {
		}));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 4);
		Map<String, ConsumerRecord<byte[], byte[]>> out = byKey(kafka.readCommitted(this.output, 3));
		await().atMost(WAIT).until(() -> processSpans().size() == 4 && transactionSpans().stream()
			.anyMatch((span) -> "committed".equals(span.getAttributes().get(key("lockstep.transaction.result")))));

		// A record with context: the process span is its child, the output carries the process span.
		SpanData k0 = processSpan(0);
		assertThat(k0.getTraceId()).isEqualTo(TRACE_ID);
		assertThat(k0.getParentSpanId()).isEqualTo(PARENT_SPAN_ID);
		assertThat(k0.getKind()).isEqualTo(SpanKind.CONSUMER);
		assertThat(k0.getName()).isEqualTo("process " + this.input);
		assertThat(k0.getAttributes().get(key("messaging.system"))).isEqualTo("kafka");
		assertThat(k0.getAttributes().get(key("messaging.operation.name"))).isEqualTo("process");
		assertThat(k0.getAttributes().get(key("messaging.destination.name"))).isEqualTo(this.input);
		assertThat(k0.getAttributes().get(key("messaging.consumer.group.name"))).isEqualTo(this.group);
		assertThat(k0.getAttributes().get(key("messaging.kafka.offset"))).isEqualTo("0");
		assertThat(k0.getAttributes().get(key("lockstep.worker"))).isEqualTo("traced");
		assertThat(traceparentOf(out.get("k0"))).isEqualTo("00-" + TRACE_ID + "-" + k0.getSpanId() + "-01");

		// Without context: a trace of its own, which the output continues.
		SpanData k1 = processSpan(1);
		assertThat(k1.getTraceId()).isNotEqualTo(TRACE_ID);
		assertThat(k1.getParentSpanContext().isValid()).isFalse();
		assertThat(traceparentOf(out.get("k1"))).isEqualTo("00-" + k1.getTraceId() + "-" + k1.getSpanId() + "-01");

		// A tombstone keeps its context too.
		SpanData k2 = processSpan(2);
		assertThat(k2.getTraceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
		assertThat(out.get("k2").value()).isNull();
		assertThat(traceparentOf(out.get("k2"))).isEqualTo("00-" + k2.getTraceId() + "-" + k2.getSpanId() + "-01");

		// Quarantined: the raw record keeps the input's context, its span the error.
		SpanData k3 = processSpan(3);
		assertThat(k3.getTraceId()).isEqualTo("5ce0e9a56015fec5aadfa328ae398115");
		assertThat(k3.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
		ConsumerRecord<byte[], byte[]> quarantined = kafka.readCommitted(this.quarantine, 1).get(0);
		assertThat(traceparentOf(quarantined))
			.isEqualTo(traceparent("5ce0e9a56015fec5aadfa328ae398115", "ab0b79c1e6e5b0d9"));

		// Every record names the transaction it joined; that transaction is a trace of its own.
		for (SpanData process : processSpans()) {
			String transactionalId = process.getAttributes().get(key("lockstep.transaction.id"));
			String sequence = process.getAttributes().get(key("lockstep.transaction.sequence"));
			assertThat(transactionalId).isEqualTo("tx-" + this.group + "-i-0");
			SpanData transaction = transactionSpans().stream()
				.filter((span) -> sequence.equals(span.getAttributes().get(key("lockstep.transaction.sequence"))))
				.findFirst()
				.orElseThrow();
			assertThat(transaction.getAttributes().get(key("lockstep.transaction.id"))).isEqualTo(transactionalId);
			assertThat(transaction.getAttributes().get(key("lockstep.transaction.result"))).isEqualTo("committed");
			assertThat(transaction.getParentSpanContext().isValid()).isFalse();
			assertThat(transaction.getTraceId()).isNotEqualTo(process.getTraceId());
		}
		assertThat(transactionSpans()).allSatisfy((span) -> assertThat(span.getName()).isEqualTo("transaction tx-"
				+ this.group + "-i-0"));
		assertThat(transactionSpans().stream()
			.mapToInt((span) -> Integer.parseInt(span.getAttributes().get(key("lockstep.transaction.records"))))
			.sum()).isEqualTo(4);
	}

	@ParameterizedTest
	@EnumSource(Ordering.class)
	void recordsWithoutATraceShareOneNewTracePerTransaction(Ordering ordering) {
		kafka.createTopics(1, this.input, this.output, this.quarantine);
		List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			records.add(record("k" + i, "paid-" + i, null));
		}
		records.add(record("k5", "bad", null));
		records.add(record("k6", "paid-6", traceparent(TRACE_ID, PARENT_SPAN_ID)));
		kafka.produce(records);
		Map<String, String> seen = new ConcurrentHashMap<>();
		// One transaction of the seven records: it commits when the last joins.
		Worker worker = start(ordering,
				upperCaseRefusingBad((value) -> seen.put(value,
						io.opentelemetry.api.trace.Span.current().getSpanContext().getSpanId())),
				new TransactionSizing(7, Duration.ofSeconds(30), Duration.ofMinutes(1)));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 7);
		Map<String, ConsumerRecord<byte[], byte[]>> out = byKey(kafka.readCommitted(this.output, 6));
		// Each shared span ends once its transaction and every record in it have ended.
		await().atMost(WAIT)
			.until(() -> sharedSpans().stream()
				.mapToInt((span) -> Integer.parseInt(span.getAttributes().get(key("messaging.batch.message_count"))))
				.sum() == 6);

		// The six records without a trace share one: the sampler was asked once.
		SpanData shared = sharedSpans().get(0);
		assertThat(sharedSpans()).hasSize(1);
		for (int i = 0; i < 5; i++) {
			ConsumerRecord<byte[], byte[]> output = out.get("k" + i);
			assertThat(traceparentOf(output)).isEqualTo(traceparent(shared.getTraceId(), shared.getSpanId()));
			assertThat(seen.get(new String(output.value(), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT)))
				.as("the span the processor saw").isEqualTo(shared.getSpanId());
		}
		assertThat(shared.getName()).isEqualTo("process " + this.input);
		assertThat(shared.getKind()).isEqualTo(SpanKind.CONSUMER);
		assertThat(shared.getParentSpanContext().isValid()).isFalse();
		assertThat(shared.getAttributes().get(key("messaging.system"))).isEqualTo("kafka");
		assertThat(shared.getAttributes().get(key("messaging.consumer.group.name"))).isEqualTo(this.group);
		assertThat(shared.getAttributes().get(key("lockstep.worker"))).isEqualTo("traced");
		assertThat(shared.getAttributes().get(key("messaging.kafka.offset"))).isNull();
		assertThat(transactionOf(shared).getAttributes().get(key("lockstep.transaction.result")))
			.isEqualTo("committed");
		// The invalid record is an event of the shared span; its quarantined copy is the raw input.
		assertThat(shared.getEvents()).singleElement()
			.satisfies((event) -> assertThat(event.getName())
				.isEqualTo("record failed: " + InvalidRecordException.class.getName()));
		assertThat(kafka.readCommitted(this.quarantine, 1).get(0).headers().lastHeader("traceparent")).isNull();
		// A record with a sampled parent still gets its own span, in its parent's trace.
		SpanData k6 = processSpan(6);
		assertThat(processSpans()).singleElement().isEqualTo(k6);
		assertThat(k6.getParentSpanId()).isEqualTo(PARENT_SPAN_ID);
		assertThat(traceparentOf(out.get("k6"))).isEqualTo(traceparent(TRACE_ID, k6.getSpanId()));
		assertThat(seen.get("paid-6")).isEqualTo(k6.getSpanId());
	}

	@ParameterizedTest
	@EnumSource(Ordering.class)
	void withLinksATransactionsRecordsInSampledTracesShareOneLinkedSpanAndTheirOutputsCarryTheirTraceHeaders(
			Ordering ordering) {
		// The transactions' own spans sampled too (MicrometerRecordTracingTests: the linked span at 0 %).
		this.sampledParents = SampledParents.LINK;
		kafka.createTopics(1, this.input, this.output, this.quarantine);
		List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
		Set<String> sampled = new HashSet<>();
		for (int i = 0; i < 7; i++) {
			String traceparent = traceparent(String.format("%s%02x", TRACE_ID.substring(0, 30), i),
					String.format("%s%02x", PARENT_SPAN_ID.substring(0, 14), i));
			sampled.add(traceparent);
			records.add(record("k" + i, (i == 6) ? "bad" : "paid-" + i, traceparent));
		}
		String unsampled = "00-" + TRACE_ID + "-" + PARENT_SPAN_ID + "-00";
		records.add(record("k7", "paid-7", unsampled));
		kafka.produce(records);
		Set<Boolean> spanInScope = ConcurrentHashMap.newKeySet();
		// One transaction of the eight records: it commits when the last joins.
		Worker worker = start(ordering,
				upperCaseRefusingBad(
						(value) -> spanInScope.add(io.opentelemetry.api.trace.Span.current().getSpanContext().isValid())),
				new TransactionSizing(8, Duration.ofSeconds(30), Duration.ofMinutes(1)));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 8);
		Map<String, ConsumerRecord<byte[], byte[]>> out = byKey(kafka.readCommitted(this.output, 7));
		await().atMost(WAIT).until(() -> sharedSpans().size() == 1);

		// Each output carries its input's trace headers as they are; so does the quarantined record.
		for (int i = 0; i < 6; i++) {
			assertThat(traceparentOf(out.get("k" + i))).isEqualTo(new String(
					records.get(i).headers().lastHeader("traceparent").value(), StandardCharsets.UTF_8));
		}
		assertThat(traceparentOf(out.get("k7"))).isEqualTo(unsampled);
		assertThat(traceparentOf(kafka.readCommitted(this.quarantine, 1).get(0)))
			.isEqualTo(new String(records.get(6).headers().lastHeader("traceparent").value(), StandardCharsets.UTF_8));
		// One span for the transaction: child of one sampled record's producer span, linked to the six others.
		SpanData linked = sharedSpans().get(0);
		Set<String> contexts = new HashSet<>();
		contexts.add(traceparent(linked.getTraceId(), linked.getParentSpanId()));
		linked.getLinks()
			.forEach((link) -> contexts
				.add(traceparent(link.getSpanContext().getTraceId(), link.getSpanContext().getSpanId())));
		assertThat(contexts).isEqualTo(sampled);
		assertThat(linked.getLinks()).hasSize(6);
		assertThat(linked.getName()).isEqualTo("process " + this.input);
		assertThat(linked.getKind()).isEqualTo(SpanKind.CONSUMER);
		assertThat(linked.getAttributes().get(key("messaging.batch.message_count"))).isEqualTo("7");
		assertThat(linked.getAttributes().get(key("messaging.consumer.group.name"))).isEqualTo(this.group);
		assertThat(transactionOf(linked).getAttributes().get(key("lockstep.transaction.result")))
			.isEqualTo("committed");
		assertThat(linked.getEvents()).singleElement()
			.satisfies((event) -> assertThat(event.getName())
				.isEqualTo("record failed: " + InvalidRecordException.class.getName()));
		// No span of a record's own, none in scope while records were processed.
		assertThat(processSpans()).isEmpty();
		assertThat(spanInScope).containsExactly(false);
	}

	@ParameterizedTest
	@EnumSource(Ordering.class)
	void anAbortedRecordIsProcessedAgainInANewSpanOfTheSameTrace(Ordering ordering) {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(List.of(record("k0", "paid", traceparent(TRACE_ID, PARENT_SPAN_ID))));
		AtomicInteger calls = new AtomicInteger();
		Worker worker = start(ordering, (ValueTransformer<String, String>) (value) -> {
			if (calls.incrementAndGet() == 1) {
				throw new IllegalStateException("pricing service down");
			}
			return value.toUpperCase(Locale.ROOT);
		});
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 1);
		ConsumerRecord<byte[], byte[]> out = kafka.readCommitted(this.output, 1).get(0);
		await().atMost(WAIT).until(() -> processSpans().size() == 2);
		List<SpanData> attempts = processSpans();
		assertThat(attempts).allSatisfy((span) -> {
			assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
			assertThat(span.getParentSpanId()).isEqualTo(PARENT_SPAN_ID);
		});
		assertThat(attempts.get(0).getSpanId()).isNotEqualTo(attempts.get(1).getSpanId());
		assertThat(attempts.get(0).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
		assertThat(attempts.get(0).getAttributes().get(key("lockstep.transaction.id"))).isNull();
		assertThat(traceparentOf(out)).isEqualTo("00-" + TRACE_ID + "-" + attempts.get(1).getSpanId() + "-01");
	}

	@ParameterizedTest
	@EnumSource(Ordering.class)
	void aRecordOfAnAbortedTransactionNamesItAndItsReplayJoinsTheNextOne(Ordering ordering) {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(List.of(record("k0", "paid", traceparent(TRACE_ID, PARENT_SPAN_ID)),
				record("k1", "refunded", null)));
		AtomicInteger k1Calls = new AtomicInteger();
		// Two records per transaction: k0 joins one, k1 fails and aborts it, both are replayed in the next.
		Worker worker = start(ordering, (ValueTransformer<String, String>) (value) -> {
			if (value.equals("refunded") && k1Calls.incrementAndGet() == 1) {
				throw new IllegalStateException("pricing service down");
			}
			return value.toUpperCase(Locale.ROOT);
		}, new TransactionSizing(2, Duration.ofSeconds(30), Duration.ofMinutes(1)));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 2);
		ConsumerRecord<byte[], byte[]> out = byKey(kafka.readCommitted(this.output, 2)).get("k0");
		await().atMost(WAIT).until(() -> processSpans().stream().filter(this::isFirstRecord).count() == 2
				&& transactionSpans().size() == 2);
		List<SpanData> attempts = processSpans().stream().filter(this::isFirstRecord).toList();
		SpanData aborted = transactionOf(attempts.get(0));
		SpanData committed = transactionOf(attempts.get(1));
		assertThat(aborted.getAttributes().get(key("lockstep.transaction.result"))).isEqualTo("aborted");
		assertThat(committed.getAttributes().get(key("lockstep.transaction.result"))).isEqualTo("committed");
		assertThat(committed.getAttributes().get(key("lockstep.transaction.records"))).isEqualTo("2");
		assertThat(attempts).allSatisfy((span) -> assertThat(span.getParentSpanId()).isEqualTo(PARENT_SPAN_ID));
		assertThat(attempts.get(0).getSpanId()).isNotEqualTo(attempts.get(1).getSpanId());
		assertThat(traceparentOf(out)).isEqualTo("00-" + TRACE_ID + "-" + attempts.get(1).getSpanId() + "-01");
		// k1, without a trace: its failed attempt's shared trace ended with the aborted
		// transaction; its replay's output carries the trace shared in the committed one.
		ConsumerRecord<byte[], byte[]> k1 = byKey(kafka.readCommitted(this.output, 2)).get("k1");
		await().atMost(WAIT).until(() -> sharedSpans().stream()
			.anyMatch((span) -> traceparentOf(k1).equals(traceparent(span.getTraceId(), span.getSpanId()))));
		SpanData replayed = sharedSpans().stream()
			.filter((span) -> traceparentOf(k1).equals(traceparent(span.getTraceId(), span.getSpanId())))
			.findFirst()
			.orElseThrow();
		assertThat(replayed.getEvents()).isEmpty();
		assertThat(transactionOf(replayed)).isEqualTo(committed);
		assertThat(sharedSpans()).filteredOn((span) -> !span.getEvents().isEmpty())
			.singleElement()
			.satisfies((failed) -> assertThat(failed.getTraceId()).isNotEqualTo(replayed.getTraceId()));
	}

	@ParameterizedTest
	@EnumSource(Ordering.class)
	void anAsynchronousProcessorsOutputCarriesTheProcessSpanFromAnyThread(Ordering ordering) {
		kafka.createTopics(1, this.input, this.output);
		kafka.produce(List.of(record("k0", "paid", traceparent(TRACE_ID, PARENT_SPAN_ID))));
		Worker worker = startAsync(ordering, (AsyncValueTransformer<String, String>) (value) -> CompletableFuture
			.supplyAsync(() -> value.toUpperCase(Locale.ROOT)));
		await().atMost(WAIT).until(() -> worker.state().committedRecords() == 1);
		ConsumerRecord<byte[], byte[]> out = kafka.readCommitted(this.output, 1).get(0);
		await().atMost(WAIT).until(() -> processSpans().size() == 1);
		SpanData process = processSpan(0);
		assertThat(process.getTraceId()).isEqualTo(TRACE_ID);
		assertThat(process.getParentSpanId()).isEqualTo(PARENT_SPAN_ID);
		assertThat(process.getAttributes().get(key("lockstep.transaction.sequence"))).isNotNull();
		assertThat(traceparentOf(out)).isEqualTo("00-" + TRACE_ID + "-" + process.getSpanId() + "-01");
	}

	private boolean isFirstRecord(SpanData process) {
		return "0".equals(process.getAttributes().get(key("messaging.kafka.offset")));
	}

	private SpanData transactionOf(SpanData process) {
		// A record's span, or a shared one, names the transaction its records joined.
		String sequence = process.getAttributes().get(key("lockstep.transaction.sequence"));
		assertThat(sequence).as("the transaction %s joined", process).isNotNull();
		return transactionSpans().stream()
			.filter((span) -> sequence.equals(span.getAttributes().get(key("lockstep.transaction.sequence"))))
			.findFirst()
			.orElseThrow();
	}

	/** Upper-cases each value and refuses "bad" as invalid input, each value seen first. */
	private static ValueTransformer<String, String> upperCaseRefusingBad(Consumer<String> seeing) {
		return (value) -> {
			seeing.accept(value);
			if (value.equals("bad")) {
				throw new InvalidRecordException("bad value");
			}
			return value.toUpperCase(Locale.ROOT);
		};
	}

	private Worker start(Ordering ordering, ValueTransformer<?, ?> transformer) {
		return start(ordering, transformer, new TransactionSizing(500, Duration.ofMillis(100)));
	}

	private Worker start(Ordering ordering, ValueTransformer<?, ?> transformer, TransactionSizing sizing) {
		return start(new Worker(settings(ordering, sizing), RecordProcessor.of(transformer)));
	}

	private Worker startAsync(Ordering ordering, AsyncValueTransformer<?, ?> transformer) {
		return start(new Worker(settings(ordering, new TransactionSizing(500, Duration.ofMillis(100))),
				AsyncRecordProcessor.of(transformer), RecoveryPolicy.AS_CLASSIFIED, WorkerListener.NONE));
	}

	private Worker start(Worker worker) {
		this.workers.add(worker);
		worker.start();
		return worker;
	}

	private WorkerSettings settings(Ordering ordering, TransactionSizing sizing) {
		OtelCurrentTraceContext current = new OtelCurrentTraceContext();
		io.opentelemetry.api.trace.Tracer otel = this.openTelemetry.getTracer("lockstep-test");
		OtelTracer tracer = new OtelTracer(otel, current, (event) -> {
		}, new OtelBaggageManager(current, List.of(), List.of()));
		OtelPropagator propagator = new OtelPropagator(this.openTelemetry.getPropagators(), otel);
		ObservationRegistry registry = ObservationRegistry.create();
		// Transactions are observations; records are traced without one.
		registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
		registry.observationConfig().observationHandler(this.observations);
		Map<String, Object> consumer = new HashMap<>(kafka.clientProperties());
		consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		Codecs codecs = new Codecs(new StringDeserializer(), new StringDeserializer(), new StringSerializer(),
				new StringSerializer());
		return WorkerSettings.builder("traced")
			.sourceTopics(this.input)
			.destination(this.output)
			.groupId(this.group)
			.transactionalId("tx-" + this.group)
			.instance(InstanceIdentity.configured("i", "test"))
			.consumerProperties(consumer)
			.producerProperties(kafka.clientProperties())
			.codecs(codecs)
			.transaction(sizing)
			.invalidInput(new InvalidInputPolicy(Mode.QUARANTINE, this.quarantine))
			.recovery(new Recovery(Duration.ofMillis(50), Duration.ofMillis(200)))
			.ordering(ordering)
			.maxInFlight(16)
			.observations(new WorkerObservations(registry,
					new MicrometerRecordTracing(tracer, propagator, true, false, this.newTraces,
							this.sampledParents)))
			.build();
	}

	/** The spans of single records. */
	private List<SpanData> processSpans() {
		return this.spans.getFinishedSpanItems()
			.stream()
			.filter((span) -> span.getName().startsWith("process ")
					&& span.getAttributes().get(key("messaging.kafka.offset")) != null)
			.sorted(java.util.Comparator.comparing(
					(SpanData span) -> Long.parseLong(span.getAttributes().get(key("messaging.kafka.offset"))))
				.thenComparing(SpanData::getStartEpochNanos))
			.toList();
	}

	/** The spans records without a trace share per transaction. */
	private List<SpanData> sharedSpans() {
		return this.spans.getFinishedSpanItems()
			.stream()
			.filter((span) -> span.getName().startsWith("process ")
					&& span.getAttributes().get(key("messaging.kafka.offset")) == null)
			.toList();
	}

	private SpanData processSpan(long offset) {
		return processSpans().stream()
			.filter((span) -> span.getAttributes().get(key("messaging.kafka.offset")).equals(Long.toString(offset)))
			.reduce((first, second) -> second)
			.orElseThrow();
	}

	private List<SpanData> transactionSpans() {
		return this.spans.getFinishedSpanItems()
			.stream()
			.filter((span) -> span.getName().startsWith("transaction "))
			.toList();
	}

	private static AttributeKey<String> key(String name) {
		return AttributeKey.stringKey(name);
	}

	private static String traceparent(String traceId, String spanId) {
		return "00-" + traceId + "-" + spanId + "-01";
	}

	private static String traceparentOf(ConsumerRecord<byte[], byte[]> record) {
		Header header = record.headers().lastHeader("traceparent");
		assertThat(record.headers().headers("traceparent")).as("one traceparent").hasSize(1);
		return new String(header.value(), StandardCharsets.UTF_8);
	}

	private static Map<String, ConsumerRecord<byte[], byte[]>> byKey(List<ConsumerRecord<byte[], byte[]>> records) {
		Map<String, ConsumerRecord<byte[], byte[]>> byKey = new HashMap<>();
		records.forEach((record) -> byKey.put(new String(record.key(), StandardCharsets.UTF_8), record));
		return byKey;
	}

	private ProducerRecord<byte[], byte[]> record(String key, String value, String traceparent) {
		RecordHeaders headers = new RecordHeaders();
		if (traceparent != null) {
			headers.add("traceparent", traceparent.getBytes(StandardCharsets.UTF_8));
		}
		return new ProducerRecord<>(this.input, null, key.getBytes(StandardCharsets.UTF_8),
				(value != null) ? value.getBytes(StandardCharsets.UTF_8) : null, headers);
	}

}
