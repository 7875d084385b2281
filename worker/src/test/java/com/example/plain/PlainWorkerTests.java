package com.example.plain;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.lockstep.test.context.TestKafka;
import dev.lockstep.test.kafka.InJvmKafkaBroker;
import dev.lockstep.worker.RecordProcessor;
import dev.lockstep.worker.Worker;
import dev.lockstep.worker.WorkerSettings;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The worker without Spring Boot that docs/workers.md shows, from a package of its own:
 * the worker module's public API is all it needs.
 */
class PlainWorkerTests {

	static Worker uppercaseWorker(String bootstrapServers) {
		WorkerSettings settings = WorkerSettings.builder("uppercase")
			.sourceTopics("words")
			.destination("upper-words")
			.consumerProperties(Map.of("bootstrap.servers", bootstrapServers))
			.producerProperties(Map.of("bootstrap.servers", bootstrapServers))
			.codecs(new WorkerSettings.Codecs(new StringDeserializer(), new StringDeserializer(),
					new StringSerializer(), new StringSerializer()))
			.build();
		return new Worker(settings, RecordProcessor.of((String word) -> word.toUpperCase(Locale.ROOT)));
	}

	@Test
	void aWorkerRunsWithoutSpringBoot() {
		// Closing TestKafka stops its broker.
		try (TestKafka kafka = new TestKafka(InJvmKafkaBroker.start())) {
			kafka.createTopics(List.of("words", "upper-words"), 1);
			for (String word : List.of("one", "two", "three")) {
				kafka.send("words", bytes(word), bytes(word));
			}
			Worker worker = uppercaseWorker(kafka.bootstrapServers());
			worker.start();
			try {
				await().atMost(Duration.ofSeconds(60)).until(() -> worker.state().committedRecords() == 3);
			}
			finally {
				worker.stop();
			}
			assertThat(kafka.readCommitted("upper-words", 3, Duration.ofSeconds(30)))
				.extracting((ConsumerRecord<byte[], byte[]> record) -> new String(record.value(), StandardCharsets.UTF_8))
				.containsExactly("ONE", "TWO", "THREE");
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
