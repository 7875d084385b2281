package dev.lockstep.worker;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

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
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import org.springframework.core.log.LogAccessor;

/**
 * One {@link Redrive} over a worker's quarantine topic, on the calling thread: every
 * record committed there when it starts is read once, from where the worker's redrive
 * group left off (or from a time); those selected are sent back, with their original key,
 * value, headers and partition and a redrive count, to the topic each was read from, in
 * transactions that also commit the group's read offsets. So a redrive interrupted
 * anywhere and asked again sends each record back exactly once. Its transactional id is
 * the same on every instance: two instances redriving at once fence each other.
 */
final class QuarantineRedrive {

	private static final LogAccessor logger = new LogAccessor(QuarantineRedrive.class);

	private static final Duration POLL_TIMEOUT = Duration.ofMillis(200);

	private static final String ERROR_HEADER_PREFIX = InvalidInputHandler.ERROR_HEADER_PREFIX;

	private final WorkerSettings settings;

	private final Redrive request;

	private final String topic;

	private long redriven;

	private long kept;

	private long notSelected;

	private final Map<String, Long> redrivenTo = new TreeMap<>();

	QuarantineRedrive(WorkerSettings settings, Redrive request) {
		this.settings = settings;
		this.request = request;
		this.topic = settings.invalidInput().quarantineTopic();
		if (this.topic == null || this.topic.isBlank()) {
			throw new IllegalStateException("Worker '" + settings.name() + "' has no quarantine topic to redrive from");
		}
	}

	/**
	 * The worker's redrive group: where its last redrive stopped.
	 * @return the group id
	 */
	String groupId() {
		return this.settings.groupId() + "-redrive";
	}

	RedriveResult run() {
		try (Consumer<byte[], byte[]> consumer = newConsumer();
				Producer<byte[], byte[]> producer = newProducer()) {
			producer.initTransactions();
			List<TopicPartition> partitions = consumer.partitionsFor(this.topic)
				.stream()
				.map((info) -> new TopicPartition(info.topic(), info.partition()))
				.toList();
			consumer.assign(partitions);
			seekToStart(consumer, partitions);
			// For a read_committed consumer: the last stable offsets, what was committed when the redrive started.
			Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
			while (!caughtUp(consumer, end)) {
				ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL_TIMEOUT);
				if (!records.isEmpty()) {
					sendBack(records, end, consumer, producer);
				}
			}
		}
		return new RedriveResult(this.redriven, this.kept, this.notSelected,
				Map.copyOf(this.redrivenTo));
	}

	private void seekToStart(Consumer<byte[], byte[]> consumer, List<TopicPartition> partitions) {
		if (this.request.from() != null) {
			Map<TopicPartition, Long> times = new HashMap<>();
			partitions.forEach((partition) -> times.put(partition, this.request.from().toEpochMilli()));
			Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(times);
			Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
			partitions.forEach((partition) -> consumer.seek(partition,
					(found.get(partition) != null) ? found.get(partition).offset() : end.get(partition)));
			return;
		}
		Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(Set.copyOf(partitions));
		for (TopicPartition partition : partitions) {
			OffsetAndMetadata offset = committed.get(partition);
			if (offset != null) {
				consumer.seek(partition, offset.offset());
			}
			else {
				consumer.seekToBeginning(List.of(partition));
			}
		}
	}

	private static boolean caughtUp(Consumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
		for (Map.Entry<TopicPartition, Long> partition : end.entrySet()) {
			if (consumer.position(partition.getKey()) < partition.getValue()) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Send a poll's selected records back and commit the group's offsets past every record
	 * read before the redrive's end, in one transaction; counted once committed.
	 */
	private void sendBack(ConsumerRecords<byte[], byte[]> records, Map<TopicPartition, Long> end,
			Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> producer) {
		Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
		Map<String, Long> sentTo = new HashMap<>();
		long keptNow = 0;
		long notSelectedNow = 0;
		producer.beginTransaction();
		try {
			for (ConsumerRecord<byte[], byte[]> record : records) {
				TopicPartition partition = new TopicPartition(record.topic(), record.partition());
				if (record.offset() >= end.get(partition)) {
					// Quarantined after the redrive started: left for the next.
					continue;
				}
				offsets.put(partition, new OffsetAndMetadata(record.offset() + 1));
				String origin = text(record, ERROR_HEADER_PREFIX + "topic");
				if (origin == null || !this.request.selects(record)) {
					notSelectedNow++;
					continue;
				}
				int count = redriveCount(record);
				if (count >= this.request.maxRedrives()) {
					keptNow++;
					logger.warn(() -> "Redrive of worker '" + this.settings.name() + "' keeps " + record.topic() + "-" + record.partition() + "@" + record.offset()
							+ " in quarantine: sent back " + count + " times already");
					continue;
				}
				producer.send(sentBack(record, origin, count + 1));
				sentTo.merge(origin, 1L, Long::sum);
			}
			producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
			producer.commitTransaction();
		}
		catch (KafkaException ex) {
			// The redrive fails; asked again, it goes on from its last commit.
			try {
				producer.abortTransaction();
			}
			catch (KafkaException abortFailed) {
				ex.addSuppressed(abortFailed);
			}
			throw ex;
		}
		sentTo.forEach((origin, sent) -> {
			this.redrivenTo.merge(origin, sent, Long::sum);
			this.redriven += sent;
		});
		this.kept += keptNow;
		this.notSelected += notSelectedNow;
	}

	/**
	 * The record as it was read from its topic: its key, value and headers (without the
	 * quarantine's), to its partition when it names one, with its redrive count.
	 */
	private static ProducerRecord<byte[], byte[]> sentBack(ConsumerRecord<byte[], byte[]> record, String origin,
			int count) {
		RecordHeaders headers = new RecordHeaders();
		for (Header header : record.headers()) {
			if (!header.key().startsWith(ERROR_HEADER_PREFIX) && !header.key().equals(Redrive.COUNT_HEADER)) {
				headers.add(header);
			}
		}
		headers.add(Redrive.COUNT_HEADER, Integer.toString(count).getBytes(StandardCharsets.UTF_8));
		String partition = text(record, ERROR_HEADER_PREFIX + "partition");
		return new ProducerRecord<>(origin, (partition != null) ? Integer.valueOf(partition) : null, record.key(),
				record.value(), headers);
	}

	private static int redriveCount(ConsumerRecord<byte[], byte[]> record) {
		String count = text(record, Redrive.COUNT_HEADER);
		return (count != null) ? Integer.parseInt(count) : 0;
	}

	private static String text(ConsumerRecord<byte[], byte[]> record, String header) {
		Header last = record.headers().lastHeader(header);
		return (last != null && last.value() != null) ? new String(last.value(), StandardCharsets.UTF_8) : null;
	}

	private Consumer<byte[], byte[]> newConsumer() {
		Map<String, Object> props = ExactlyOnceClients.consumer(new HashMap<>(this.settings.consumerProperties()));
		// Assigned, not subscribed: the group only keeps the redrive's offsets.
		props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
		props.remove("group.protocol");
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
