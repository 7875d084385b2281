package dev.lockstep.worker.invalid;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.lockstep.worker.ExactlyOnceClients;
import dev.lockstep.worker.QuarantineHeaders;
import dev.lockstep.worker.Redrive;
import dev.lockstep.worker.RedriveResult;
import dev.lockstep.worker.WorkerListener;
import dev.lockstep.worker.WorkerSettings;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import org.springframework.core.log.LogAccessor;

/**
 * One {@link Redrive} over a worker's quarantine topic, on the calling thread: every
 * record committed there when it starts (up to each partition's last stable offset) is
 * read once, from where its redrive group left off; those selected are sent back, with
 * their original key, value, headers and partition and a redrive count, to the source
 * topic each was read from, in transactions that also commit the group's read offsets.
 * So a redrive interrupted anywhere and asked again sends each record back exactly once.
 * The worker's redrives share one group; the redrives from a given time have their own,
 * so that reading again never moves the shared one. Its transactional id is the same on
 * every instance: two instances redriving at once fence each other.
 */
public final class QuarantineRedrive {

	private static final LogAccessor logger = new LogAccessor(QuarantineRedrive.class);

	private static final Duration POLL_TIMEOUT = Duration.ofMillis(200);

	// A redrive whose position moves no further for this long fails, naming where it stands
	// (a quarantine partition without a leader, a transaction left open on it).
	static final Duration NO_PROGRESS_LIMIT = Duration.ofSeconds(60);

	private final WorkerSettings settings;

	private final Redrive request;

	private final WorkerListener listener;

	private final String topic;

	// The partition count of each source topic, as the producer knows it.
	private final Map<String, Integer> partitions = new HashMap<>();

	private RedriveResult done = RedriveResult.NONE;

	private volatile boolean stopped;

	// The consumer reading the quarantine while the redrive runs, for stop() to wake.
	private volatile Consumer<byte[], byte[]> reading;

	/**
	 * Create a redrive of a worker's quarantine topic.
	 * @param settings the worker's settings
	 * @param request from where, which records, and who asked
	 * @param listener told of what the redrive did
	 * @throws IllegalStateException when the worker has no quarantine topic
	 */
	public QuarantineRedrive(WorkerSettings settings, Redrive request, WorkerListener listener) {
		this.settings = settings;
		this.request = request;
		this.listener = listener;
		this.topic = settings.invalidInput().quarantineTopic();
		if (this.topic == null || this.topic.isBlank()) {
			throw new IllegalStateException("Worker '" + settings.name() + "' has no quarantine topic to redrive from");
		}
	}

	/**
	 * The redrive's group: where it stands.
	 * @return the group id
	 */
	public String groupId() {
		String shared = this.settings.groupId() + "-redrive";
		return (this.request.from() != null) ? shared + "-from-" + this.request.from().toEpochMilli() : shared;
	}

	/**
	 * Run the redrive to its end on the calling thread.
	 * @return what it sent back and kept
	 */
	public RedriveResult run() {
		try (Consumer<byte[], byte[]> consumer = newConsumer(); Producer<byte[], byte[]> producer = newProducer()) {
			this.reading = consumer;
			if (this.stopped) {
				consumer.wakeup();
			}
			// Read before the producer takes the transactional id: a redrive stopped
			// before it began fences no other.
			List<TopicPartition> quarantine = consumer.partitionsFor(this.topic)
				.stream()
				.map((info) -> new TopicPartition(info.topic(), info.partition()))
				.toList();
			producer.initTransactions();
			consumer.assign(quarantine);
			// For a read_committed consumer: the last stable offsets, what was committed when the redrive started.
			Map<TopicPartition, Long> end = consumer.endOffsets(quarantine);
			seekToStart(consumer, quarantine, end);
			Map<TopicPartition, Long> positions = positions(consumer, quarantine);
			long progressedNanos = System.nanoTime();
			while (!caughtUp(positions, end)) {
				ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL_TIMEOUT);
				if (!records.isEmpty()) {
					sendBack(records, end, consumer, producer);
				}
				Map<TopicPartition, Long> now = positions(consumer, quarantine);
				if (!now.equals(positions)) {
					positions = now;
					progressedNanos = System.nanoTime();
				}
				else if (System.nanoTime() - progressedNanos > NO_PROGRESS_LIMIT.toNanos()) {
					throw new IllegalStateException("Redrive of worker '" + this.settings.name()
							+ "' made no progress for " + NO_PROGRESS_LIMIT.toSeconds() + " s at " + positions + " of "
							+ end + " (asked again, it goes on from there)");
				}
			}
		}
		catch (WakeupException ex) {
			throw new IllegalStateException("Redrive of worker '" + this.settings.name() + "' stopped with the worker "
					+ "after sending back " + this.done.redriven() + " records (asked again, it goes on from there)", ex);
		}
		return this.done;
	}

	/**
	 * End the redrive at its next read of the quarantine, from any thread: between
	 * transactions (a poll's records being sent back when it is asked still commit), so
	 * what it committed stays and nothing is left open; {@link #run()} fails saying so.
	 */
	public void stop() {
		this.stopped = true;
		Consumer<byte[], byte[]> consumer = this.reading;
		if (consumer != null) {
			consumer.wakeup();
		}
	}

	/**
	 * Seek each partition to where the redrive's group stands: its committed offset when
	 * that is within the partition (one outside it belongs to a topic deleted and created
	 * again), otherwise the first record quarantined at or after the request's time, or
	 * the partition's first record.
	 */
	private void seekToStart(Consumer<byte[], byte[]> consumer, List<TopicPartition> quarantine,
			Map<TopicPartition, Long> end) {
		Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(Set.copyOf(quarantine));
		Map<TopicPartition, Long> beginning = consumer.beginningOffsets(quarantine);
		Map<TopicPartition, Long> times = new HashMap<>();
		for (TopicPartition partition : quarantine) {
			OffsetAndMetadata offset = committed.get(partition);
			boolean within = offset != null && offset.offset() >= beginning.get(partition)
					&& offset.offset() <= end.get(partition);
			if (within) {
				consumer.seek(partition, offset.offset());
				continue;
			}
			if (offset != null) {
				logger.warn(() -> "Redrive group " + groupId() + " stood at " + offset.offset() + " of " + partition
						+ ", outside its records (" + beginning.get(partition) + " to " + end.get(partition)
						+ "): reading it from its start");
			}
			if (this.request.from() != null) {
				times.put(partition, this.request.from().toEpochMilli());
			}
			else {
				consumer.seek(partition, beginning.get(partition));
			}
		}
		if (!times.isEmpty()) {
			Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(times);
			times.keySet()
				.forEach((partition) -> consumer.seek(partition,
						(found.get(partition) != null) ? found.get(partition).offset() : end.get(partition)));
		}
	}

	private static Map<TopicPartition, Long> positions(Consumer<byte[], byte[]> consumer,
			List<TopicPartition> quarantine) {
		Map<TopicPartition, Long> positions = new HashMap<>();
		quarantine.forEach((partition) -> positions.put(partition, consumer.position(partition)));
		return positions;
	}

	private static boolean caughtUp(Map<TopicPartition, Long> positions, Map<TopicPartition, Long> end) {
		return end.entrySet()
			.stream()
			.allMatch((partition) -> positions.get(partition.getKey()) >= partition.getValue());
	}

	/**
	 * Send a poll's selected records back and commit the group's offsets past every
	 * record read before the redrive's end, in one transaction; counted once committed.
	 */
	private void sendBack(ConsumerRecords<byte[], byte[]> records, Map<TopicPartition, Long> end,
			Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> producer) {
		Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
		Map<String, Long> sentTo = new TreeMap<>();
		long kept = 0;
		long notSelected = 0;
		long unroutable = 0;
		producer.beginTransaction();
		try {
			for (ConsumerRecord<byte[], byte[]> record : records) {
				TopicPartition partition = new TopicPartition(record.topic(), record.partition());
				if (record.offset() >= end.get(partition)) {
					// Quarantined after the redrive started: left for the next.
					continue;
				}
				offsets.put(partition, new OffsetAndMetadata(record.offset() + 1));
				String origin = QuarantineHeaders.text(record.headers(), QuarantineHeaders.TOPIC);
				if (origin == null || !this.settings.sourceTopics().contains(origin)) {
					unroutable++;
				}
				else if (!this.request.selects(record)) {
					notSelected++;
				}
				else if (redriveCount(record) >= this.request.maxRedrives()) {
					kept++;
					String count = QuarantineHeaders.text(record.headers(), QuarantineHeaders.REDRIVE_COUNT);
					logger.warn(() -> "Redrive of worker '" + this.settings.name() + "' keeps " + partition + "@"
							+ record.offset() + " in quarantine: sent back " + count + " times already");
				}
				else {
					producer.send(sentBack(record, origin, producer));
					sentTo.merge(origin, 1L, Long::sum);
				}
			}
			producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
			producer.commitTransaction();
		}
		catch (RuntimeException ex) {
			// The redrive fails; asked again, it goes on from its last commit.
			try {
				producer.abortTransaction();
			}
			catch (KafkaException abortFailed) {
				ex.addSuppressed(abortFailed);
			}
			throw ex;
		}
		long sent = sentTo.values().stream().mapToLong(Long::longValue).sum();
		RedriveResult committed = new RedriveResult(sent, kept, notSelected, unroutable, sentTo);
		this.done = this.done.plus(committed);
		try {
			this.listener.redriven(this.settings.name(), committed);
		}
		catch (RuntimeException ex) {
			logger.warn(ex, () -> "Worker " + this.settings.name() + " listener failed on a redrive");
		}
	}

	/**
	 * The record as it was read from its topic: its key, value and headers (without the
	 * quarantine's), to its partition while the topic has it, with its redrive count.
	 */
	private ProducerRecord<byte[], byte[]> sentBack(ConsumerRecord<byte[], byte[]> record, String origin,
			Producer<byte[], byte[]> producer) {
		RecordHeaders headers = new RecordHeaders();
		for (Header header : record.headers()) {
			String name = header.key();
			if (!name.startsWith(QuarantineHeaders.PREFIX) && !name.equals(QuarantineHeaders.REDRIVE_COUNT)) {
				headers.add(header);
			}
		}
		QuarantineHeaders.add(headers, QuarantineHeaders.REDRIVE_COUNT, Integer.toString(redriveCount(record) + 1));
		Integer partition = number(QuarantineHeaders.text(record.headers(), QuarantineHeaders.PARTITION));
		int partitions = this.partitions.computeIfAbsent(origin, (topic) -> producer.partitionsFor(topic).size());
		return new ProducerRecord<>(origin, (partition != null && partition < partitions) ? partition : null,
				record.key(), record.value(), headers);
	}

	/** How often the record was sent back; a count that is no number stops it as the guard would. */
	private int redriveCount(ConsumerRecord<byte[], byte[]> record) {
		String count = QuarantineHeaders.text(record.headers(), QuarantineHeaders.REDRIVE_COUNT);
		if (count == null) {
			return 0;
		}
		Integer parsed = number(count);
		return (parsed != null && parsed >= 0) ? parsed : this.request.maxRedrives();
	}

	private static Integer number(String text) {
		try {
			return (text != null) ? Integer.valueOf(text.strip()) : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private Consumer<byte[], byte[]> newConsumer() {
		Map<String, Object> props = ExactlyOnceClients.consumer(new HashMap<>(this.settings.consumerProperties()));
		// Assigned, not subscribed: the group only keeps the redrive's offsets, so no setting
		// of a group member (protocol, assignor, static id) applies.
		props.keySet()
			.removeIf((key) -> key.startsWith("group.")
					|| key.equals(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG));
		props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId());
		props.put(ConsumerConfig.CLIENT_ID_CONFIG, "lockstep-" + this.settings.name() + "-redrive-consumer");
		return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
	}

	private Producer<byte[], byte[]> newProducer() {
		Map<String, Object> props = ExactlyOnceClients.producer(new HashMap<>(this.settings.producerProperties()));
		props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, this.settings.transactionalId() + "-redrive");
		props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) this.settings.transaction().timeout().toMillis());
		props.put(ProducerConfig.CLIENT_ID_CONFIG, "lockstep-" + this.settings.name() + "-redrive-producer");
		return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
	}

}
