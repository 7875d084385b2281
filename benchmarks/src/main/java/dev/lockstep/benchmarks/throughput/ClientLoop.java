package dev.lockstep.benchmarks.throughput;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.lockstep.benchmarks.Order;
import dev.lockstep.registry.kafka.RawAvroDeserializer;
import dev.lockstep.registry.kafka.RawAvroSerializer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A hand-written kafka-clients loop on its own thread, the way an experienced user writes
 * one: client defaults except what the loop's guarantee needs, the same raw Avro serdes
 * as every other variant, keys and headers carried over.
 */
abstract class ClientLoop implements Variant.Runner {

	private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);

	protected RunSpec spec;

	protected KafkaConsumer<byte[], Order> consumer;

	protected KafkaProducer<byte[], Order> producer;

	private Thread thread;

	private volatile boolean running = true;

	private volatile Throwable failure;

	/** Whether the producer is transactional. */
	protected abstract boolean transactional();

	/** Handle one poll's records (possibly none). */
	protected abstract void onPoll(ConsumerRecords<byte[], Order> records) throws Exception;

	@Override
	public AutoCloseable start(RunSpec spec) {
		this.spec = spec;
		Map<String, Object> consumerProps = new HashMap<>();
		consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers());
		consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, spec.group());
		consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		consumerProps.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
		this.consumer = new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(),
				new RawAvroDeserializer<>(Order.class));
		Map<String, Object> producerProps = new HashMap<>();
		producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers());
		if (transactional()) {
			producerProps.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, spec.transactionalId());
		}
		this.producer = new KafkaProducer<>(producerProps, new ByteArraySerializer(),
				new RawAvroSerializer<>(Order.class));
		if (transactional()) {
			this.producer.initTransactions();
		}
		this.consumer.subscribe(List.of(spec.input()));
		this.thread = new Thread(this::run, spec.variant().label());
		this.thread.start();
		return this::stop;
	}

	private void run() {
		try {
			while (this.running) {
				onPoll(this.consumer.poll(POLL_TIMEOUT));
			}
		}
		catch (Throwable ex) {
			this.failure = ex;
			ex.printStackTrace();
		}
	}

	protected ProducerRecord<byte[], Order> normalized(ConsumerRecord<byte[], Order> record) {
		return new ProducerRecord<>(this.spec.output(), null, record.key(), Normalization.normalize(record.value()),
				record.headers());
	}

	protected static Map<TopicPartition, OffsetAndMetadata> nextOffsets(ConsumerRecords<byte[], Order> records) {
		Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
		for (TopicPartition partition : records.partitions()) {
			List<ConsumerRecord<byte[], Order>> ofPartition = records.records(partition);
			offsets.put(partition, new OffsetAndMetadata(ofPartition.get(ofPartition.size() - 1).offset() + 1));
		}
		return offsets;
	}

	private void stop() throws InterruptedException {
		this.running = false;
		this.thread.join();
		this.producer.close();
		this.consumer.close();
		if (this.failure != null) {
			throw new IllegalStateException(this.spec.variant().label() + " failed", this.failure);
		}
	}

}
