package dev.lockstep.e2e;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * The worker's commits over time: its group's committed input offsets, summed, every
 * 100 ms. Exactly once, they move only with a committed transaction (the offsets are
 * committed in it), never with an aborted one, whose marker moves the output's stable
 * offsets too.
 */
final class CommitProgress implements AutoCloseable {

	private static final Duration SAMPLE_EVERY = Duration.ofMillis(100);

	private final String bootstrapServers;

	private final Thread sampler;

	private final Progress progress = new Progress();

	private volatile boolean running = true;

	CommitProgress(String bootstrapServers) {
		this.bootstrapServers = bootstrapServers;
		this.sampler = new Thread(this::sample, "commit-progress");
		this.sampler.setDaemon(true);
		this.sampler.start();
	}

	/** When the group's committed offsets moved on. */
	Progress progress() {
		return this.progress;
	}

	private void sample() {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers))) {
			long committed = 0;
			while (this.running) {
				try {
					long now = admin.listConsumerGroupOffsets(OrderPipeline.GROUP)
						.partitionsToOffsetAndMetadata()
						.get(2, TimeUnit.SECONDS)
						.values()
						.stream()
						.filter((offset) -> offset != null)
						.mapToLong(OffsetAndMetadata::offset)
						.sum();
					if (now > committed) {
						this.progress.stepped();
						committed = now;
					}
				}
				catch (InterruptedException ex) {
					return;
				}
				catch (Exception ex) {
					// The broker is down or its coordinator moving: no step seen, which is what is measured.
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
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		this.sampler.interrupt();
		this.sampler.join(15_000);
	}

}
