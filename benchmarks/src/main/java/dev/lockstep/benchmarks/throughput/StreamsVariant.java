package dev.lockstep.benchmarks.throughput;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;

import dev.lockstep.benchmarks.Order;
import dev.lockstep.registry.kafka.RawAvroDeserializer;
import dev.lockstep.registry.kafka.RawAvroSerializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Variant B: a stateless Kafka Streams topology ({@code mapValues}) with
 * {@code exactly_once_v2} and every other setting at its default (commit interval 100 ms
 * under exactly-once, one stream thread).
 */
final class StreamsVariant implements Variant.Runner {

	@Override
	public AutoCloseable start(RunSpec spec) throws Exception {
		Serde<Order> orders = Serdes.serdeFrom(new RawAvroSerializer<>(Order.class),
				new RawAvroDeserializer<>(Order.class));
		StreamsBuilder builder = new StreamsBuilder();
		builder.stream(spec.input(), Consumed.with(Serdes.ByteArray(), orders))
			.mapValues(Normalization::normalize)
			.to(spec.output(), Produced.with(Serdes.ByteArray(), orders));
		Properties props = new Properties();
		props.put(StreamsConfig.APPLICATION_ID_CONFIG, spec.group());
		props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers());
		props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
		Path stateDir = Files.createTempDirectory("lockstep-bench-streams-");
		props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
		KafkaStreams streams = new KafkaStreams(builder.build(), props);
		streams.start();
		return () -> {
			streams.close(Duration.ofSeconds(30));
			streams.cleanUp();
			try (Stream<Path> paths = Files.walk(stateDir)) {
				paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
			}
		};
	}

}
