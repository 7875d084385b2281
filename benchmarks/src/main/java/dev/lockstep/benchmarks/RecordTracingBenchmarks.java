package dev.lockstep.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.lockstep.autoconfigure.observation.MicrometerRecordTracing;
import dev.lockstep.autoconfigure.observation.NewTraces;
import dev.lockstep.autoconfigure.observation.SampledParents;
import dev.lockstep.worker.observation.RecordTrace;
import dev.lockstep.worker.observation.SlotTracing;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One record's tracing as a worker does it (decide, write the context into its output,
 * end), with Spring Boot's default sampler (parent-based, 10 % of new traces) over the
 * OpenTelemetry SDK, spans batched to an exporter that drops them: a record whose
 * {@code traceparent} is not sampled, one whose is (a span of its own, or a link from its
 * transaction's span: {@code lockstep.observations.sampled-parents=link}), one without
 * context (a root of its own, or sharing its transaction's new trace); a transaction holds
 * 1,000 records (a worker at 10,000 records/s and the default interval of 100 ms); and
 * {@code none}, a worker without tracing, as the baseline.
 */
@State(Scope.Thread)
public class RecordTracingBenchmarks {

	private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-";

	private OpenTelemetrySdk openTelemetry;

	private MicrometerRecordTracing tracing;

	private SlotTracing slot;

	private int inTransaction;

	private ConsumerRecord<byte[], byte[]> unsampled;

	private ConsumerRecord<byte[], byte[]> sampled;

	private ConsumerRecord<byte[], byte[]> parentless;

	// A transaction's sampled records, each of its own producer span: the span links 128.
	private ConsumerRecord<byte[], byte[]>[] linked;

	// An output whose processor carried the input's headers over, as most do.
	private Headers carriedOver;

	@Setup(Level.Trial)
	public void setUp() {
		this.openTelemetry = OpenTelemetrySdk.builder()
			.setTracerProvider(SdkTracerProvider.builder()
				.addSpanProcessor(BatchSpanProcessor.builder(new DroppingSpanExporter()).build())
				.setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(0.1)))
				.build())
			.setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
			.build();
		OtelCurrentTraceContext current = new OtelCurrentTraceContext();
		OtelTracer tracer = new OtelTracer(this.openTelemetry.getTracer("bench"), current, (event) -> {
		}, new OtelBaggageManager(current, List.of(), List.of()));
		OtelPropagator propagator = new OtelPropagator(this.openTelemetry.getPropagators(),
				this.openTelemetry.getTracer("bench"));
		this.tracing = new MicrometerRecordTracing(tracer, propagator, true, false, NewTraces.PER_RECORD,
				SampledParents.SPAN);
		this.slot = new MicrometerRecordTracing(tracer, propagator, true, false, NewTraces.PER_TRANSACTION,
				SampledParents.LINK)
			.slot("bench", "bench-group");
		this.unsampled = record(TRACEPARENT + "00");
		this.sampled = record(TRACEPARENT + "01");
		this.parentless = record(null);
		this.linked = linkedRecords();
		this.carriedOver = new RecordHeaders(this.unsampled.headers().toArray());
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.openTelemetry.close();
	}

	@Benchmark
	public RecordTrace none() {
		RecordTrace trace = RecordTrace.NONE;
		trace.inject(this.unsampled, this.carriedOver);
		trace.end();
		return trace;
	}

	@Benchmark
	public RecordTrace unsampledParent() {
		RecordTrace trace = this.tracing.start(this.unsampled, "bench", "bench-group");
		trace.inject(this.unsampled, this.carriedOver);
		trace.end();
		return trace;
	}

	@Benchmark
	public RecordTrace sampledParent() {
		RecordTrace trace = this.tracing.start(this.sampled, "bench", "bench-group");
		trace.inject(this.sampled, new RecordHeaders());
		trace.end();
		return trace;
	}

	@Benchmark
	public RecordTrace parentless() {
		RecordTrace trace = this.tracing.start(this.parentless, "bench", "bench-group");
		trace.inject(this.parentless, new RecordHeaders());
		trace.end();
		return trace;
	}

	// The two below inline what they share: passing the output through a helper cost the
	// allocation profile 24 B/record that no worker pays (escape analysis undone).

	@Benchmark
	public RecordTrace parentlessPerTransaction() {
		RecordTrace trace = this.slot.start(this.parentless);
		trace.inject(this.parentless, new RecordHeaders());
		trace.end();
		if (++this.inTransaction == 1_000) {
			this.inTransaction = 0;
			this.slot.transactionEnded();
		}
		return trace;
	}

	@Benchmark
	public RecordTrace sampledParentLinked() {
		ConsumerRecord<byte[], byte[]> record = this.linked[this.inTransaction];
		RecordTrace trace = this.slot.start(record);
		trace.inject(record, new RecordHeaders());
		trace.end();
		if (++this.inTransaction == 1_000) {
			this.inTransaction = 0;
			this.slot.transactionEnded();
		}
		return trace;
	}

	@SuppressWarnings("unchecked")
	private static ConsumerRecord<byte[], byte[]>[] linkedRecords() {
		ConsumerRecord<byte[], byte[]>[] records = new ConsumerRecord[1_000];
		for (int i = 0; i < records.length; i++) {
			records[i] = record(String.format("00-4bf92f3577b34da6a3ce929d0e0e4736-%016x-01", i + 1));
		}
		return records;
	}

	private static ConsumerRecord<byte[], byte[]> record(String traceparent) {
		ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("orders", 0, 42, "order-42".getBytes(),
				new byte[32]);
		if (traceparent != null) {
			record.headers().add("traceparent", traceparent.getBytes(StandardCharsets.US_ASCII));
		}
		return record;
	}

}
