package dev.lockstep.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A topic's committed records over time, as a {@code read_committed} reader sees them: its
 * last stable offsets, summed, every 100 ms; to measure how long the topic stood still
 * around a broker restart (the output, and beside it the input, whose producer waits for
 * the same leaders).
 */
final class TopicProgress implements AutoCloseable {

	private static final Duration SAMPLE_EVERY = Duration.ofMillis(100);

	private final String topic;

	private final KafkaConsumer<byte[], byte[]> consumer;

	private final Thread sampler;

	// When (System.nanoTime) the topic was seen to have grown since the sample before.
	private final List<Long> growth = new ArrayList<>();

	private volatile boolean running = true;

	private volatile long committed;

	TopicProgress(String bootstrapServers, String topic) {
		this.topic = topic;
		this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(),
				new ByteArrayDeserializer());
		this.sampler = new Thread(this::sample, "progress-" + topic);
		this.sampler.setDaemon(true);
		this.sampler.start();
	}

	/** The topic's last stable offsets, summed, at the last sample that answered. */
	long committed() {
		return this.committed;
	}

	/**
	 * The longest time the topic did not grow around a restart: from the last
	 * growth before the node was stopped to the first growth after it served requests
	 * again, split where the output grew in between.
	 * @param stoppedAt when the node was stopped (System.nanoTime)
	 * @param readyAt when it served requests again
	 * @return the longest pause; the time since the last growth while none came after
	 */
	synchronized Duration longestPause(long stoppedAt, long readyAt) {
		long longest = 0;
		long previous = Long.MIN_VALUE;
		for (long grown : this.growth) {
			if (previous != Long.MIN_VALUE && grown >= stoppedAt) {
				longest = Math.max(longest, grown - previous);
				if (grown >= readyAt) {
					return Duration.ofNanos(longest);
				}
			}
			previous = grown;
		}
		return (previous != Long.MIN_VALUE) ? Duration.ofNanos(Math.max(longest, System.nanoTime() - previous))
				: Duration.ZERO;
	}

	private void sample() {
		List<TopicPartition> partitions = null;
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
				if (now > this.committed) {
					synchronized (this) {
						this.growth.add(System.nanoTime());
					}
					this.committed = now;
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
