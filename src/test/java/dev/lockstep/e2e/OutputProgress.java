package dev.lockstep.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The output's progress over time, sampled every 100 ms from the output topic's end
 * offsets (records and markers, read_uncommitted), to measure how long the output stood
 * still around a broker restart.
 */
final class OutputProgress implements AutoCloseable {

	private static final Duration SAMPLE_EVERY = Duration.ofMillis(100);

	private final KafkaConsumer<byte[], byte[]> consumer;

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final Thread sampler;

	// The times (System.nanoTime) at which the output had grown since the sample before.
	private final List<Long> growth = new ArrayList<>();

	private volatile long total;

	OutputProgress(String bootstrapServers) {
		this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
				new ByteArrayDeserializer(), new ByteArrayDeserializer());
		this.sampler = new Thread(this::sample, "output-progress");
		this.sampler.setDaemon(true);
		this.sampler.start();
	}

	/** The output's end offsets, summed, at the last sample. */
	long total() {
		return this.total;
	}

	/**
	 * The longest time the output did not grow, from the last growth before a node was
	 * stopped to the first growth after it served requests again.
	 * @param stoppedAt when the node was stopped (System.nanoTime)
	 * @param readyAt when it served requests again
	 */
	synchronized Duration longestPause(long stoppedAt, long readyAt) {
		long longest = 0;
		Long previous = null;
		for (long grown : this.growth) {
			if (previous != null && grown >= stoppedAt) {
				longest = Math.max(longest, grown - previous);
				if (grown >= readyAt) {
					break;
				}
			}
			previous = grown;
		}
		return Duration.ofNanos(longest);
	}

	private void sample() {
		List<TopicPartition> partitions = null;
		long last = -1;
		while (this.running.get()) {
			try {
				if (partitions == null) {
					partitions = this.consumer.partitionsFor(OrderPipeline.OUTPUT, Duration.ofSeconds(2))
						.stream()
						.map((info) -> new TopicPartition(info.topic(), info.partition()))
						.toList();
				}
				long now = this.consumer.endOffsets(partitions, Duration.ofSeconds(2))
					.values()
					.stream()
					.mapToLong(Long::longValue)
					.sum();
				if (now > last) {
					synchronized (this) {
						this.growth.add(System.nanoTime());
					}
					last = now;
					this.total = now;
				}
			}
			catch (RuntimeException ex) {
				// The broker is down or moving: no growth seen, which is what is measured.
			}
			sleep();
		}
	}

	private static void sleep() {
		try {
			Thread.sleep(SAMPLE_EVERY);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.running.set(false);
		this.sampler.join(10_000);
		this.consumer.close(Duration.ofSeconds(5));
	}

}
