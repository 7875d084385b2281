package dev.lockstep.autoconfigure.observation;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.lockstep.registry.avro.RawAvroCodec;
import dev.lockstep.test.kafka.KafkaBroker;
import dev.lockstep.test.kafka.SharedKafkaBroker;
import dev.lockstep.worker.InvalidRecordException;
import dev.lockstep.worker.ValueTransformer;
import dev.lockstep.worker.test.Order;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One trace from a named producer, through a worker, to its output and quarantine, with
 * Spring Boot's own OpenTelemetry tracing (spans exported to memory) against a real
 * broker: the worker's process span continues the producer's span, outputs carry the
 * process span, the quarantined record keeps its input's context, and the record's trace
 * id is in the logging context while the processor runs and while the worker logs about
 * the record; the worker reads and writes the propagation format Spring Boot's tracing
 * is configured for (B3 here); a record its parent did not sample gets no span, its log
 * lines a trace id only when asked for; and records without a trace start one per
 * transaction, or one each when so configured.
 */
@ExtendWith(SharedKafkaBroker.class)
class LockstepTracingIntegrationTests {

	private static final Duration WAIT = Duration.ofMinutes(2);

	private static final Logger WORKER_LOGGER = (Logger) LoggerFactory.getLogger("dev.lockstep.worker");

	private static KafkaBroker broker;

	// The worker's log lines, for the test that reads them.
	private final ListAppender<ILoggingEvent> workerLog = new ListAppender<>();

	@BeforeAll
	static void connect(KafkaBroker shared) {
		broker = shared;
	}

	@AfterEach
	void stopReadingTheWorkersLog() {
		WORKER_LOGGER.detachAppender(this.workerLog);
	}

	@Test
	@SuppressWarnings("unchecked")
	void aTraceRunsFromTheNamedProducerThroughTheWorkerToItsOutputs() {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(properties())
			.properties("spring.kafka.template.observation-enabled=true",
					"spring.kafka.listener.observation-enabled=true")
			.run()) {
			this.workerLog.start();
			WORKER_LOGGER.addAppender(this.workerLog);
			KafkaTemplate<String, Order> orders = context.getBean("orders", KafkaTemplate.class);
			assertThat(ReflectionTestUtils.getField(orders, "observationEnabled")).isEqualTo(true);
			ContainerProperties listener = context
				.getBean("lockstepListenerContainerFactory", ConcurrentKafkaListenerContainerFactory.class)
				.getContainerProperties();
			assertThat(listener.isObservationEnabled()).isTrue();
			assertThat(listener.isRecordObservationsInBatch()).isTrue();
			orders.executeInTransaction((template) -> {
				template.send(new ProducerRecord<>("tr-orders", "order-1", new Order(1L, "paid", 12500L)));
				template.send(new ProducerRecord<>("tr-orders", "order-2", new Order(2L, "bad", 1L)));
				return null;
			});
			Received received = context.getBean(Received.class);
			InMemorySpanExporter spans = context.getBean(InMemorySpanExporter.class);
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(received.topics()).containsKeys("tr-orders", "tr-normalized",
						"tr-quarantine"));
			Traceparent sent1 = Traceparent.of(received.one("tr-orders", "order-1"));
			Traceparent sent2 = Traceparent.of(received.one("tr-orders", "order-2"));
			Traceparent output = Traceparent.of(received.one("tr-normalized", "order-1"));
			Traceparent quarantined = Traceparent.of(received.one("tr-quarantine", "order-2"));
			assertThat(sent1.traceId()).isNotEqualTo(sent2.traceId());

			await().atMost(WAIT).untilAsserted(() -> assertThat(processSpans(spans)).hasSize(2));
			SpanData process1 = processSpan(spans, sent1.traceId());
			assertThat(process1.getParentSpanId()).isEqualTo(sent1.spanId());
			assertThat(process1.getKind()).isEqualTo(SpanKind.CONSUMER);
			assertThat(output.traceId()).isEqualTo(sent1.traceId());
			assertThat(output.spanId()).isEqualTo(process1.getSpanId()).isNotEqualTo(sent1.spanId());
			SpanData process2 = processSpan(spans, sent2.traceId());
			assertThat(process2.getParentSpanId()).isEqualTo(sent2.spanId());
			assertThat(process2.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
			assertThat(quarantined).isEqualTo(sent2);
			assertThat(spans.getFinishedSpanItems()).anySatisfy((span) -> assertThat(span.getName())
				.matches("transaction tr-normalizer-.+-0"));

			App app = context.getBean(App.class);
			assertThat(app.loggedTraceIds).containsEntry(1L, sent1.traceId()).containsEntry(2L, sent2.traceId());
			assertThat(app.currentTraceIds).isEqualTo(app.loggedTraceIds);
			assertThat(this.workerLog.list).filteredOn((event) -> event.getFormattedMessage().contains(" quarantined "))
				.singleElement()
				.satisfies((event) -> assertThat(event.getMDCPropertyMap()).containsEntry("traceId", sent2.traceId()));
		}
	}

	@Test
	void theWorkerSpeaksThePropagationSpringBootIsConfiguredFor() throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(properties())
			.properties("management.tracing.propagation.type=b3")
			.run()) {
			String traceId = "80f198ee56343ba864fe8b2a57d3eff7";
			String spanId = "e457b5a2e4d86bd1";
			Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
			try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(),
					new ByteArraySerializer())) {
				ProducerRecord<String, byte[]> order = new ProducerRecord<>("tr-orders", "order-b3",
						new RawAvroCodec<>(Order.class).encode(new Order(3L, "paid", 100L)));
				order.headers().add("b3", (traceId + "-" + spanId + "-1").getBytes(StandardCharsets.UTF_8));
				producer.send(order).get();
			}
			Received received = context.getBean(Received.class);
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(received.topics()).containsKey("tr-normalized"));
			ConsumerRecord<String, byte[]> output = received.one("tr-normalized", "order-b3");
			assertThat(output.headers().headers("traceparent")).isEmpty();
			assertThat(output.headers().headers("b3")).hasSize(1);
			String[] b3 = new String(output.headers().lastHeader("b3").value(), StandardCharsets.UTF_8).split("-");
			assertThat(b3[0]).isEqualTo(traceId);
			assertThat(b3[1]).isNotEqualTo(spanId);
			InMemorySpanExporter spans = context.getBean(InMemorySpanExporter.class);
			await().atMost(WAIT).untilAsserted(() -> assertThat(processSpan(spans, traceId).getParentSpanId())
				.isEqualTo(spanId));
			assertThat(processSpan(spans, traceId).getSpanId()).isEqualTo(b3[1]);
		}
	}

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void anUnsampledRecordsLogLinesCarryItsTraceIdOnlyWhenAskedTo(boolean correlate) throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(properties())
			.properties("management.tracing.sampling.probability=0",
					"lockstep.observations.correlate-unsampled-logs=" + correlate)
			.run()) {
			// Each run its own order and trace: the topic and groups are shared.
			long id = correlate ? 5L : 4L;
			String traceId = correlate ? "5ce0e9a56015fec5aadfa328ae398115" : "6ce0e9a56015fec5aadfa328ae398116";
			String traceparent = "00-" + traceId + "-ab0b79c1e6e5b0d9-00";
			Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
			try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(),
					new ByteArraySerializer())) {
				ProducerRecord<String, byte[]> order = new ProducerRecord<>("tr-orders", "order-" + id,
						new RawAvroCodec<>(Order.class).encode(new Order(id, "paid", 100L)));
				order.headers().add("traceparent", traceparent.getBytes(StandardCharsets.UTF_8));
				producer.send(order).get();
			}
			Received received = context.getBean(Received.class);
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(received.topics().get("tr-normalized"))
					.anyMatch((record) -> record.key().equals("order-" + id)));
			ConsumerRecord<String, byte[]> output = received.one("tr-normalized", "order-" + id);
			App app = context.getBean(App.class);
			assertThat(context.getBean(InMemorySpanExporter.class).getFinishedSpanItems())
				.noneMatch((span) -> span.getName().startsWith("process "));
			// The output carries the input's header either way: log correlation changes only the logs.
			assertThat(new String(output.headers().lastHeader("traceparent").value(), StandardCharsets.UTF_8))
				.isEqualTo(traceparent);
			if (correlate) {
				assertThat(app.loggedTraceIds).containsEntry(id, traceId);
			}
			else {
				assertThat(app.loggedTraceIds).doesNotContainKey(id);
			}
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "per-transaction", "per-record" })
	void ordersWithoutATraceStartOneNewTracePerTransactionOrPerRecord(String newTraces) throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(properties())
			.properties("lockstep.observations.new-traces=" + newTraces)
			.run()) {
			// Each run its own orders: the topic and groups are shared.
			List<Long> ids = newTraces.equals("per-record") ? List.of(8L, 9L) : List.of(6L, 7L);
			Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
			try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(),
					new ByteArraySerializer())) {
				for (long id : ids) {
					producer.send(new ProducerRecord<>("tr-orders", "order-" + id,
							new RawAvroCodec<>(Order.class).encode(new Order(id, "paid", 100L))));
				}
				producer.flush();
			}
			Received received = context.getBean(Received.class);
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(received.topics().getOrDefault("tr-normalized", List.of()))
					.filteredOn((record) -> record.key().equals("order-" + ids.get(0))
							|| record.key().equals("order-" + ids.get(1)))
					.hasSize(2));
			InMemorySpanExporter spans = context.getBean(InMemorySpanExporter.class);
			App app = context.getBean(App.class);
			for (long id : ids) {
				Traceparent output = Traceparent.of(received.one("tr-normalized", "order-" + id));
				await().atMost(WAIT).untilAsserted(() -> assertThat(processSpans(spans))
					.anyMatch((span) -> span.getSpanId().equals(output.spanId())));
				SpanData span = processSpan(spans, output.traceId());
				assertThat(span.getSpanId()).isEqualTo(output.spanId());
				assertThat(span.getParentSpanContext().isValid()).isFalse();
				assertThat(app.loggedTraceIds).containsEntry(id, output.traceId());
				// One record's span names its offset; a shared one counts its records when it ends.
				assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.kafka.offset")) != null)
					.isEqualTo(newTraces.equals("per-record"));
				assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.batch.message_count")) != null)
					.isEqualTo(newTraces.equals("per-transaction"));
			}
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void withSampledParentsLinkedTheOutputsContinueTheProducersSpanAndTheWorkersSpanLinksToIt() {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
			.web(WebApplicationType.NONE)
			.properties(properties())
			.properties("lockstep.observations.sampled-parents=link", "spring.kafka.template.observation-enabled=true")
			.run()) {
			KafkaTemplate<String, Order> orders = context.getBean("orders", KafkaTemplate.class);
			// Each run its own orders: the topic and groups are shared.
			orders.executeInTransaction((template) -> {
				template.send(new ProducerRecord<>("tr-orders", "order-12", new Order(12L, "paid", 100L)));
				template.send(new ProducerRecord<>("tr-orders", "order-13", new Order(13L, "paid", 100L)));
				return null;
			});
			Received received = context.getBean(Received.class);
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(received.topics().getOrDefault("tr-normalized", List.of()))
					.filteredOn((record) -> record.key().equals("order-12") || record.key().equals("order-13"))
					.hasSize(2));
			InMemorySpanExporter spans = context.getBean(InMemorySpanExporter.class);
			Set<Traceparent> sent = Set.of(Traceparent.of(received.one("tr-orders", "order-12")),
					Traceparent.of(received.one("tr-orders", "order-13")));
			// Each output carries its input's traceparent: the producer's span is its parent.
			assertThat(Set.of(Traceparent.of(received.one("tr-normalized", "order-12")),
					Traceparent.of(received.one("tr-normalized", "order-13"))))
				.isEqualTo(sent);
			// The worker's span (one per transaction) is the child of one and links to the other.
			await().atMost(WAIT).untilAsserted(() -> assertThat(linkedContexts(spans)).containsAll(sent));
			assertThat(processSpans(spans)).allSatisfy((span) -> {
				assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.kafka.offset"))).isNull();
				assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.batch.message_count")))
					.isEqualTo(Integer.toString(span.getLinks().size() + 1));
			});
			App app = context.getBean(App.class);
			assertThat(app.currentTraceIds).as("no span in scope while processed").doesNotContainKeys(12L, 13L);
		}
	}

	/** Each process span's parent and the contexts it links to. */
	private static Set<Traceparent> linkedContexts(InMemorySpanExporter spans) {
		Set<Traceparent> contexts = new HashSet<>();
		for (SpanData span : processSpans(spans)) {
			contexts.add(new Traceparent(span.getTraceId(), span.getParentSpanId()));
			span.getLinks()
				.forEach((link) -> contexts
					.add(new Traceparent(link.getSpanContext().getTraceId(), link.getSpanContext().getSpanId())));
		}
		return contexts;
	}

	private static List<SpanData> processSpans(InMemorySpanExporter spans) {
		return spans.getFinishedSpanItems()
			.stream()
			.filter((span) -> span.getName().equals("process tr-orders"))
			.toList();
	}

	private static SpanData processSpan(InMemorySpanExporter spans, String traceId) {
		return processSpans(spans).stream()
			.filter((span) -> span.getTraceId().equals(traceId))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no process span in trace " + traceId + ": "
					+ spans.getFinishedSpanItems()));
	}

	private static Map<String, Object> properties() {
		return Map.ofEntries(Map.entry("spring.kafka.bootstrap-servers", broker.bootstrapServers()),
				Map.entry("spring.kafka.consumer.auto-offset-reset", "earliest"),
				Map.entry("spring.kafka.consumer.key-deserializer",
						"org.apache.kafka.common.serialization.StringDeserializer"),
				Map.entry("spring.kafka.consumer.value-deserializer",
						"org.apache.kafka.common.serialization.ByteArrayDeserializer"),
				Map.entry("management.tracing.sampling.probability", "1.0"),
				Map.entry("lockstep.topics.tr-orders.partitions", 1),
				Map.entry("lockstep.topics.tr-normalized.partitions", 1),
				Map.entry("lockstep.topics.tr-quarantine.partitions", 1),
				Map.entry("lockstep.producers.orders.key.codec", "string"),
				Map.entry("lockstep.producers.orders.value.codec", "raw-avro"),
				Map.entry("lockstep.producers.orders.value.type", Order.class.getName()),
				Map.entry("lockstep.workers.normalizer.source-topics", "tr-orders"),
				Map.entry("lockstep.workers.normalizer.destination", "tr-normalized"),
				Map.entry("lockstep.workers.normalizer.group-id", "tr-normalizers"),
				Map.entry("lockstep.workers.normalizer.transactional-id", "tr-normalizer"),
				Map.entry("lockstep.workers.normalizer.invalid-input.policy", "quarantine"),
				Map.entry("lockstep.workers.normalizer.invalid-input.quarantine-topic", "tr-quarantine"),
				Map.entry("lockstep.workers.normalizer.key.codec", "string"),
				Map.entry("lockstep.workers.normalizer.value.codec", "raw-avro"),
				Map.entry("lockstep.workers.normalizer.value.type", Order.class.getName()));
	}

	record Traceparent(String traceId, String spanId) {

		static Traceparent of(ConsumerRecord<String, byte[]> record) {
			assertThat(record.headers().headers("traceparent")).as("one traceparent in %s", record).hasSize(1);
			Header header = record.headers().lastHeader("traceparent");
			String[] fields = new String(header.value(), StandardCharsets.UTF_8).split("-");
			return new Traceparent(fields[1], fields[2]);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		final Map<Long, String> loggedTraceIds = new ConcurrentHashMap<>();

		final Map<Long, String> currentTraceIds = new ConcurrentHashMap<>();

		@Bean
		InMemorySpanExporter spanExporter() {
			return InMemorySpanExporter.create();
		}

		@Bean
		ValueTransformer<Order, Order> normalizer(ObjectProvider<Tracer> tracer) {
			return (order) -> {
				String logged = MDC.get("traceId");
				if (logged != null) {
					this.loggedTraceIds.put(order.getId(), logged);
				}
				if (tracer.getObject().currentSpan() != null) {
					this.currentTraceIds.put(order.getId(), tracer.getObject().currentSpan().context().traceId());
				}
				if (order.getStatus().equals("bad")) {
					throw new InvalidRecordException("status 'bad'");
				}
				return new Order(order.getId(), order.getStatus().toUpperCase(Locale.ROOT), order.getAmountCents());
			};
		}

		@Bean
		Received received() {
			return new Received();
		}

	}

	static class Received {

		final List<ConsumerRecord<String, byte[]>> records = new CopyOnWriteArrayList<>();

		@KafkaListener(topics = { "tr-orders", "tr-normalized", "tr-quarantine" }, groupId = "tr-listener",
				containerFactory = "lockstepListenerContainerFactory")
		void receive(List<ConsumerRecord<String, byte[]>> batch) {
			this.records.addAll(batch);
		}

		Map<String, List<ConsumerRecord<String, byte[]>>> topics() {
			return this.records.stream().collect(Collectors.groupingBy(ConsumerRecord::topic));
		}

		ConsumerRecord<String, byte[]> one(String topic, String key) {
			return this.records.stream()
				.filter((record) -> record.topic().equals(topic) && record.key().equals(key))
				.reduce((first, second) -> {
					throw new AssertionError("two records of " + key + " in " + topic);
				})
				.orElseThrow(() -> new AssertionError("no record of " + key + " in " + topic + ": " + this.records));
		}

	}

}
