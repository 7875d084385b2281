package dev.lockstep.benchmarks.throughput;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.lockstep.benchmarks.Order;
import dev.lockstep.registry.kafka.RawAvroDeserializer;
import dev.lockstep.registry.kafka.RawAvroSerializer;
import io.confluent.parallelconsumer.ParallelConsumerOptions;
import io.confluent.parallelconsumer.ParallelConsumerOptions.CommitMode;
import io.confluent.parallelconsumer.ParallelConsumerOptions.ProcessingOrder;
import io.confluent.parallelconsumer.ParallelStreamProcessor;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Confluent's Parallel Consumer in {@code KEY} order: with
 * {@code PERIODIC_TRANSACTIONAL_PRODUCER} (its exactly-once mode) or
 * {@code PERIODIC_CONSUMER_ASYNCHRONOUS} (at-least-once, its fastest), as its README shows
 * them. Options: {@code commit-mode}, {@code max-concurrency} (256).
 */
final class ParallelConsumerVariant implements Variant.Runner {

	@Override
	public AutoCloseable start(RunSpec spec) {
		CommitMode commitMode = CommitMode.valueOf(spec.option("commit-mode", "PERIODIC_TRANSACTIONAL_PRODUCER"));
		boolean transactional = commitMode == CommitMode.PERIODIC_TRANSACTIONAL_PRODUCER;
		Map<String, Object> consumerProps = new HashMap<>();
		consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers());
		consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, spec.group());
		consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(),
				new ByteArrayDeserializer());
		Map<String, Object> producerProps = new HashMap<>();
		producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers());
		if (transactional) {
			producerProps.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, spec.transactionalId());
		}
		KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps, new ByteArraySerializer(),
				new ByteArraySerializer());
		ParallelStreamProcessor<byte[], byte[]> processor = ParallelStreamProcessor
			.createEosStreamProcessor(ParallelConsumerOptions.<byte[], byte[]>builder()
				.ordering(ProcessingOrder.KEY)
				.maxConcurrency(Integer.parseInt(spec.option("max-concurrency", "256")))
				.commitMode(commitMode)
				.consumer(consumer)
				.producer(producer)
				.build());
		processor.subscribe(List.of(spec.input()));
		RawAvroDeserializer<Order> decoder = new RawAvroDeserializer<>(Order.class);
		RawAvroSerializer<Order> encoder = new RawAvroSerializer<>(Order.class);
		processor.pollAndProduce((context) -> {
			ConsumerRecord<byte[], byte[]> record = context.getSingleConsumerRecord();
			Order order = Normalization.normalize(decoder.deserialize(record.topic(), record.value()));
			return new ProducerRecord<>(spec.output(), null, record.key(), encoder.serialize(spec.output(), order),
					record.headers());
		});
		return () -> processor.closeDontDrainFirst(Duration.ofSeconds(30));
	}

}
