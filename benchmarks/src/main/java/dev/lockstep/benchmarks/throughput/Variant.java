package dev.lockstep.benchmarks.throughput;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The ways of running the order normalization that the harness compares, each run in a
 * JVM of its own.
 */
enum Variant {

	/** Hand-written kafka-clients exactly-once loop: one transaction per poll of 500. */
	A("raw-eos", "kafka-clients EOS, a transaction per poll", Map.of(), RawEosLoop::new),

	/** Kafka Streams with exactly_once_v2 and its default commit interval. */
	B("streams", "Kafka Streams exactly_once_v2", Map.of(), StreamsVariant::new),

	/** Kafka Streams on the inputs of E_HEADERS: it passes each input's headers on, as Lockstep does. */
	B_HEADERS("streams-headers", "Kafka Streams exactly_once_v2, every input with a traceparent", Map.of(),
			StreamsVariant::new, TraceInput.NOT_SAMPLED),

	/** Spring Boot, a batch @KafkaListener and the auto-configured KafkaTransactionManager. */
	C("spring", "Spring Boot + spring-kafka transactional batch listener", Map.of(),
			SpringListenerVariant::new),

	/** Hand-written at-least-once loop, commitSync per batch: the no-EOS reference. */
	D("raw-alo", "kafka-clients at-least-once, commitSync per poll", Map.of(), AtLeastOnceLoop::new),

	/** The Lockstep worker declared in YAML, default settings. */
	E("lockstep", "Lockstep worker, default settings", Map.of(), LockstepVariant::new),

	/** The Lockstep worker with the tuned settings of bench-lockstep-tuned.yml. */
	E_TUNED("lockstep-tuned", "Lockstep worker, tuned settings", Map.of("profile", "tuned"),
			LockstepVariant::new),

	/** Hand-written best-case EOS loop: transactions span polls (100 ms or 10,000 records). */
	F("best-eos", "kafka-clients EOS, transactions spanning polls", Map.of(), SpanningEosLoop::new),

	/** No EOS at all: asynchronous sends and commits; the workload's ceiling here. */
	P("pipe", "kafka-clients pipe, async sends and commits", Map.of(), PipeLoop::new),

	/** The Lockstep worker with ordering key (max-in-flight as the run's options say, else 256). */
	E_KEY("lockstep-key", "Lockstep worker, ordering key", Map.of("lockstep.workers.bench.ordering", "key"),
			LockstepVariant::new),

	/** The Lockstep worker with ordering key and the asynchronous processor (a stage per record). */
	E_ASYNC("lockstep-async", "Lockstep worker, ordering key, asynchronous processor",
			Map.of("lockstep.workers.bench.ordering", "key", "lockstep.workers.bench.processor",
					"asyncOrderNormalizer"),
			LockstepVariant::new),

	/** The Lockstep worker with observations on and no tracer: transactions observed, records counted. */
	E_METRICS("lockstep-metrics", "Lockstep worker, observations on, no tracer",
			Map.of("lockstep.observations.enabled", "true", "spring.autoconfigure.exclude",
					"org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration"),
			LockstepVariant::new),

	/** The Lockstep worker with tracing, no record sampled: what asking the sampler costs. */
	E_TRACE0("lockstep-trace-0", "Lockstep worker, tracing on, sampling 0 %",
			Map.of("lockstep.observations.enabled", "true", "management.tracing.sampling.probability", "0.0"),
			LockstepVariant::new),

	/** The Lockstep worker with tracing (Spring Boot's OpenTelemetry), 10 % of records sampled. */
	E_TRACE10("lockstep-trace-10", "Lockstep worker, tracing on, sampling 10 %",
			Map.of("lockstep.observations.enabled", "true", "management.tracing.sampling.probability", "0.1"),
			LockstepVariant::new),

	/** The Lockstep worker with tracing, every record sampled. */
	E_TRACE100("lockstep-trace-100", "Lockstep worker, tracing on, sampling 100 %",
			Map.of("lockstep.observations.enabled", "true", "management.tracing.sampling.probability", "1.0"),
			LockstepVariant::new),

	/** The Lockstep worker without tracing on the inputs of E_PARENT_00: what carrying the header costs. */
	E_HEADERS("lockstep-headers", "Lockstep worker, tracing off, every input with a traceparent",
			Map.of(), LockstepVariant::new, TraceInput.NOT_SAMPLED),

	/** The Lockstep worker with tracing at Spring Boot's default sampling, every input in an unsampled trace. */
	E_PARENT_00("lockstep-parent-00", "Lockstep worker, tracing on, every input's traceparent not sampled",
			Map.of("lockstep.observations.enabled", "true"), LockstepVariant::new, TraceInput.NOT_SAMPLED),

	/** The Lockstep worker with tracing at Spring Boot's default sampling, every input in a sampled trace. */
	E_PARENT_01("lockstep-parent-01", "Lockstep worker, tracing on, every input's traceparent sampled",
			Map.of("lockstep.observations.enabled", "true"), LockstepVariant::new, TraceInput.SAMPLED),

	/** E_PARENT_01 with {@code sampled-parents: link}: one span per transaction, linked to each input. */
	E_PARENT_01_LINK("lockstep-parent-01-link",
			"Lockstep worker, tracing on, every input's traceparent sampled, linked from its transaction's span",
			Map.of("lockstep.observations.enabled", "true", "lockstep.observations.sampled-parents", "link"),
			LockstepVariant::new, TraceInput.SAMPLED),

	/** The sample app's executable jar as shipped, its own process: its YAML, actuator, Prometheus, tracing. */
	S("sample", "The sample app's jar as shipped (Spring Boot's default sampling)", Map.of(), SampleJarVariant::new),

	/** Parallel Consumer 0.5.3.3, KEY order, its exactly-once mode. */
	PC_EOS("pc-eos", "Parallel Consumer, KEY order, PERIODIC_TRANSACTIONAL_PRODUCER",
			Map.of("commit-mode", "PERIODIC_TRANSACTIONAL_PRODUCER"), ParallelConsumerVariant::new),

	/** Parallel Consumer 0.5.3.3, KEY order, at-least-once with asynchronous commits (its fastest). */
	PC_ALO("pc-alo", "Parallel Consumer, KEY order, PERIODIC_CONSUMER_ASYNCHRONOUS (at-least-once)",
			Map.of("commit-mode", "PERIODIC_CONSUMER_ASYNCHRONOUS"), ParallelConsumerVariant::new);

	private final String label;

	private final String description;

	private final Map<String, String> defaultOptions;

	private final Supplier<Runner> runner;

	private final TraceInput traceInput;

	Variant(String label, String description, Map<String, String> defaultOptions, Supplier<Runner> runner) {
		this(label, description, defaultOptions, runner, TraceInput.NONE);
	}

	Variant(String label, String description, Map<String, String> defaultOptions, Supplier<Runner> runner,
			TraceInput traceInput) {
		this.label = label;
		this.description = description;
		this.defaultOptions = defaultOptions;
		this.runner = runner;
		this.traceInput = traceInput;
	}

	String label() {
		return this.label;
	}

	String description() {
		return this.description;
	}

	Map<String, String> defaultOptions() {
		return this.defaultOptions;
	}

	/** The trace context the variant's input records carry. */
	TraceInput traceInput() {
		return this.traceInput;
	}

	/** Start the variant on a run; closing the result stops it. */
	AutoCloseable start(RunSpec spec) throws Exception {
		return this.runner.get().start(spec);
	}

	/** A variant's implementation. */
	interface Runner {

		/** Start processing the run's input; closing the result stops. */
		AutoCloseable start(RunSpec spec) throws Exception;

	}

}
