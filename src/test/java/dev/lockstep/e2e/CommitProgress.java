package dev.lockstep.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * The worker's commits over time: its group's committed input offsets, summed and per
 * partition, and the output's last stable offsets (what a read_committed reader can read)
 * per partition, every 100 ms. Exactly once, committed offsets move only with a committed
 * transaction (the offsets are committed in it), never with an aborted one, whose marker
 * moves the output's stable offsets too; an open transaction of a crashed worker holds the
 * stable offsets of the partitions it wrote to until the broker aborts it.
 */
final class CommitProgress implements AutoCloseable {

	private static final Duration SAMPLE_EVERY = Duration.ofMillis(100);

	private final String bootstrapServers;

	private final Thread sampler;

	private final Progress progress = new Progress();

	private final Map<TopicPartition, Progress> inputPartitions = new ConcurrentHashMap<>();

	private final Map<TopicPartition, Progress> outputPartitions = new ConcurrentHashMap<>();

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

	/**
	 * The longest standstill of any one input partition's committed offset in a window
	 * (see {@link Progress#longestPause}): a partition whose owner crashed waits for the
	 * group to give it to another member.
	 */
	Duration longestInputPartitionPause(long from, long to) {
		return longestOf(this.inputPartitions, from, to);
	}

	/**
	 * The longest standstill of any one output partition's last stable offset in a window:
	 * what a read_committed reader of the output waits, an open transaction of a crashed
	 * worker included.
	 */
	Duration longestOutputPartitionPause(long from, long to) {
		return longestOf(this.outputPartitions, from, to);
	}

	private static Duration longestOf(Map<TopicPartition, Progress> partitions, long from, long to) {
		return partitions.values()
			.stream()
			.map((partition) -> partition.longestPause(from, to))
			.max(Duration::compareTo)
			.orElse(Duration.ZERO);
	}

	private void sample() {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers))) {
			long committed = 0;
			Map<TopicPartition, Long> inputOffsets = new ConcurrentHashMap<>();
			Map<TopicPartition, Long> stableOffsets = new ConcurrentHashMap<>();
			while (this.running) {
				try {
					Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(OrderPipeline.GROUP)
						.partitionsToOffsetAndMetadata()
						.get(2, TimeUnit.SECONDS);
					long now = offsets.values()
						.stream()
						.filter((offset) -> offset != null)
						.mapToLong(OffsetAndMetadata::offset)
						.sum();
					if (now > committed) {
						this.progress.stepped();
						committed = now;
					}
					offsets.forEach((partition, offset) -> {
						if (offset != null) {
							step(this.inputPartitions, inputOffsets, partition, offset.offset());
						}
					});
					sampleOutput(admin, stableOffsets);
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

	private void sampleOutput(Admin admin, Map<TopicPartition, Long> stableOffsets) throws Exception {
		Map<TopicPartition, OffsetSpec> latest = admin.describeTopics(List.of(OrderPipeline.OUTPUT))
			.allTopicNames()
			.get(2, TimeUnit.SECONDS)
			.get(OrderPipeline.OUTPUT)
			.partitions()
			.stream()
			.collect(Collectors.toMap((info) -> new TopicPartition(OrderPipeline.OUTPUT, info.partition()),
					(info) -> OffsetSpec.latest()));
		admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
			.all()
			.get(2, TimeUnit.SECONDS)
			.forEach((partition, info) -> step(this.outputPartitions, stableOffsets, partition, info.offset()));
	}

	private static void step(Map<TopicPartition, Progress> progress, Map<TopicPartition, Long> last,
			TopicPartition partition, long offset) {
		Progress partitionProgress = progress.computeIfAbsent(partition, (key) -> new Progress());
		Long previous = last.put(partition, offset);
		if (previous == null || offset > previous) {
			partitionProgress.stepped();
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		this.sampler.interrupt();
		this.sampler.join(15_000);
	}

}
