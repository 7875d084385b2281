package dev.lockstep.e2e;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged sample app traces as shipped, with nothing but its own
 * {@code application.yml} (Spring Boot's default sampling, parent-based): an order whose
 * {@code traceparent} is sampled comes out of the output topic in the same trace, its
 * parent the worker's span, and its log line carries that span; an order whose
 * {@code traceparent} is not sampled comes out with the very same header bytes and no
 * span in its log line; an order without one comes out without a header, or, when the
 * sampler picked it, in a new trace.
 */
class TracePropagationTests {

	private static final int RECORDS = 50;

	@Test
	void anOrdersTraceContinuesThroughTheSampleWorker(@TempDir Path workDir) throws Exception {
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS);
			pipeline.createTopics(1, (short) 1);
			Map<Long, String> sent = new HashMap<>();
			try (KafkaProducer<byte[], byte[]> producer = pipeline.producer()) {
				for (long id = 1; id <= RECORDS; id++) {
					ProducerRecord<byte[], byte[]> order = pipeline.order(id, false);
					// A third sampled by their sender, a third not (the 50th, a tombstone, among
					// them), a third without a trace.
					if (id % 3 != 0) {
						String traceparent = "00-%032x-%016x-%s".formatted(0x4bf92f3577b34da6L + id, 0xa3ceL + id,
								(id % 3 == 1) ? "01" : "00");
						order.headers().add("traceparent", traceparent.getBytes(StandardCharsets.UTF_8));
						sent.put(id, traceparent);
					}
					producer.send(order).get();
				}
			}
			SampleAppProcess worker = pipeline.startWorker(workDir, "--logging.level.dev.lockstep.sample=debug");
			try {
				worker.awaitUntil("group lag 0", Duration.ofMinutes(4), () -> pipeline.groupLag() == 0);
			}
			finally {
				worker.stop(Duration.ofSeconds(60));
			}
			Map<Long, ConsumerRecord<byte[], byte[]>> outputs = new HashMap<>();
			pipeline.readCommitted(OrderPipeline.OUTPUT)
				.forEach((record) -> outputs.put(Long.parseLong(header(record.headers(), "seq")), record));
			assertThat(outputs).hasSize(RECORDS);
			for (long id = 1; id <= RECORDS; id++) {
				Headers headers = outputs.get(id).headers();
				String input = sent.get(id);
				if (input != null && input.endsWith("-00")) {
					assertThat(headers.headers("traceparent")).as("order %d's traceparent", id)
						.singleElement()
						.satisfies((header) -> assertThat(header.value())
							.isEqualTo(input.getBytes(StandardCharsets.UTF_8)));
					assertThat(worker.output()).as("the log line of order %d", id)
						.doesNotContain(input.split("-")[1]);
					continue;
				}
				if (input == null && headers.lastHeader("traceparent") == null) {
					continue;
				}
				assertThat(headers.headers("traceparent")).as("one traceparent on order %d", id).hasSize(1);
				String[] output = header(headers, "traceparent").split("-");
				assertThat(output[0]).isEqualTo("00");
				assertThat(output[1]).matches("[0-9a-f]{32}");
				assertThat(output[2]).matches("[0-9a-f]{16}");
				assertThat(output[3]).isEqualTo("01");
				if (input != null) {
					assertThat(output[1]).as("trace of order %d", id).isEqualTo(input.split("-")[1]);
					assertThat(output[2]).as("parent span of order %d", id).isNotEqualTo(input.split("-")[2]);
				}
				else {
					assertThat(sent.values()).as("a new trace for order %d", id)
						.noneMatch((context) -> context.contains(output[1]));
				}
				if (!Orders.isTombstone(id)) {
					assertThat(worker.output()).as("the log line of order %d", id)
						.containsPattern("\\[" + output[1] + "-" + output[2] + "\\].* normalized order " + id + ":");
				}
			}
		}
	}

	private static String header(Headers headers, String key) {
		return new String(headers.lastHeader(key).value(), StandardCharsets.UTF_8);
	}

}
