package dev.lockstep.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.lockstep.test.kafka.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import static org.awaitility.Awaitility.await;

/**
 * The topics and clients of a registry-format worker test: a worker "normalizer" reading
 * string keys and framed values from an input topic into an output topic, quarantining
 * invalid input; records sent with a {@code source} header and read back
 * {@code read_committed}.
 */
final class RegistryWorkerFixture {

	final String input = "in-" + UUID.randomUUID();

	final String output = "out-" + UUID.randomUUID();

	final String quarantine = "quarantine-" + UUID.randomUUID();

	private final KafkaBroker broker;

	RegistryWorkerFixture(KafkaBroker broker) {
		this.broker = broker;
	}

	/**
	 * Return the worker's properties for a codec of its values.
	 */
	Map<String, Object> properties(String registryUrl, String codec, Class<?> type) {
		String worker = "lockstep.workers.normalizer.";
		Map<String, Object> properties = new HashMap<>(Map.ofEntries(
				Map.entry("spring.kafka.bootstrap-servers", this.broker.bootstrapServers()),
				Map.entry("lockstep.registry.url", registryUrl),
				Map.entry("lockstep.topics." + this.input + ".partitions", 1),
				Map.entry("lockstep.topics." + this.output + ".partitions", 1),
				Map.entry("lockstep.topics." + this.quarantine + ".partitions", 1),
				Map.entry(worker + "source-topics", this.input), Map.entry(worker + "destination", this.output),
				Map.entry(worker + "group-id", codec + "-normalizers"),
				Map.entry(worker + "transactional-id", codec + "-normalizer"),
				Map.entry(worker + "key.codec", "string"), Map.entry(worker + "value.codec", codec),
				Map.entry(worker + "value.type", type.getName()), Map.entry(worker + "output-value.codec", codec),
				Map.entry(worker + "output-value.type", type.getName()),
				Map.entry(worker + "invalid-input.policy", "quarantine"),
				Map.entry(worker + "invalid-input.quarantine-topic", this.quarantine)));
		return properties;
	}

	KafkaProducer<String, byte[]> producer() {
		return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.broker.bootstrapServers()),
				new StringSerializer(), new ByteArraySerializer());
	}

	void send(KafkaProducer<String, byte[]> producer, String key, byte[] value) throws Exception {
		ProducerRecord<String, byte[]> record = new ProducerRecord<>(this.input, key, value);
		record.headers().add("source", "test".getBytes(StandardCharsets.UTF_8));
		producer.send(record).get();
	}

	List<ConsumerRecord<String, byte[]>> readCommitted(String topic, int count) {
		List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
		try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.broker.bootstrapServers(),
						ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(),
						ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ISOLATION_LEVEL_CONFIG,
						"read_committed"),
				new StringDeserializer(), new ByteArrayDeserializer())) {
			consumer.subscribe(List.of(topic));
			await().atMost(Duration.ofSeconds(90))
				.until(() -> {
					consumer.poll(Duration.ofMillis(200)).forEach(records::add);
					return records.size() >= count;
				});
		}
		return records;
	}

	/**
	 * Return a quarantined record's {@code lockstep.error.*} headers, one a line.
	 */
	static String errorOf(ConsumerRecord<String, byte[]> record) {
		StringBuilder errors = new StringBuilder();
		record.headers().forEach((header) -> {
			if (header.key().startsWith("lockstep.error.")) {
				errors.append(header.key()).append('=').append(new String(header.value(), StandardCharsets.UTF_8))
					.append('\n');
			}
		});
		return errors.toString();
	}

}
