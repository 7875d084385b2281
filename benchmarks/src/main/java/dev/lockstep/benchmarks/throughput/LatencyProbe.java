package dev.lockstep.benchmarks.throughput;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import dev.lockstep.benchmarks.Order;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;

/**
 * End-to-end latency at a fixed input rate: feeds stamped orders at the rate and, on
 * another thread, tails the output read_committed, so a record counts when its commit
 * makes it visible. Latency = visible time - send time (the same clock: one machine).
 */
final class LatencyProbe {

	private final OrderWorkload workload;

	LatencyProbe(OrderWorkload workload) {
		this.workload = workload;
	}

	/**
	 * Feed {@code records} orders at {@code rate} per second and measure.
	 * @return p50 and p99 in milliseconds, over all but the first quarter (warm-up)
	 */
	double[] measure(String input, String output, long records, double rate, TraceInput trace) throws Exception {
		long[] latencies = new long[(int) records];
		Thread tail = new Thread(() -> tail(output, latencies), "latency-tail");
		tail.start();
		try (KafkaProducer<byte[], Order> producer = this.workload.producer(0)) {
			long start = System.nanoTime();
			for (long id = 1; id <= records; id++) {
				long due = start + (long) ((id - 1) * 1e9 / rate);
				long wait = due - System.nanoTime();
				if (wait > 0) {
					LockSupport.parkNanos(wait);
				}
				producer.send(OrderWorkload.order(input, id, true, trace));
			}
			producer.flush();
		}
		tail.join(Duration.ofMinutes(5).toMillis());
		if (tail.isAlive()) {
			tail.interrupt();
			throw new IllegalStateException("Not every order of " + input + " reached " + output);
		}
		long[] measured = Arrays.copyOfRange(latencies, latencies.length / 4, latencies.length);
		Arrays.sort(measured);
		return new double[] { percentile(measured, 0.50) / 1e3, percentile(measured, 0.99) / 1e3 };
	}

	private void tail(String output, long[] latencies) {
		try (KafkaConsumer<byte[], byte[]> consumer = this.workload.readCommittedConsumer()) {
			List<TopicPartition> partitions = OrderWorkload.partitions(consumer, output);
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			int received = 0;
			while (received < latencies.length && !Thread.currentThread().isInterrupted()) {
				for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
					long now = OrderWorkload.nowMicros();
					latencies[received++] = now - OrderWorkload.sentAtMicros(record);
				}
			}
		}
	}

	private static double percentile(long[] sorted, double quantile) {
		return sorted[(int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)];
	}

}
