package dev.lockstep.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A topic's committed records over time, as a {@code read_committed} reader sees them: its
 * last stable offsets, summed, every 100 ms.
 */
final class TopicProgress implements AutoCloseable {

	private static final Duration SAMPLE_EVERY = Duration.ofMillis(100);

	private final String topic;

	private final KafkaConsumer<byte[], byte[]> consumer;

	private final Thread sampler;

	private final Progress progress = new Progress();

	private volatile boolean running = true;

	TopicProgress(String bootstrapServers, String topic) {
		this.topic = topic;
		this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(),
				new ByteArrayDeserializer());
		this.sampler = new Thread(this::sample, "progress-" + topic);
		this.sampler.setDaemon(true);
		this.sampler.start();
	}

	/** When the topic's committed records grew. */
	Progress progress() {
		return this.progress;
	}

	private void sample() {
		List<TopicPartition> partitions = null;
		long committed = 0;
		while (this.running) {
			try {
				if (partitions == null) {
					partitions = this.consumer.partitionsFor(this.topic, Duration.ofSeconds(2))
						.stream()
						.map((info) -> new TopicPartition(info.topic(), info.partition()))
						.toList();
				}
				long now = this.consumer.endOffsets(partitions, Duration.ofSeconds(2))
					.values()
					.stream()
					.mapToLong(Long::longValue)
					.sum();
				if (now > committed) {
					this.progress.stepped();
					committed = now;
				}
			}
			catch (RuntimeException ex) {
				// The broker is down or its leaders are moving: no growth seen, which is what is measured.
			}
			try {
				// The sampling period, not a wait for a condition.
				Thread.sleep(SAMPLE_EVERY.toMillis());
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		this.sampler.interrupt();
		this.sampler.join(10_000);
		this.consumer.close(Duration.ofSeconds(5));
	}

}
