package dev.lockstep.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import dev.lockstep.benchmarks.protobuf.ProtoOrder;
import dev.lockstep.registry.kafka.RegistryProtobufDeserializer;
import dev.lockstep.registry.kafka.RegistryProtobufSerializer;
import dev.lockstep.registry.protobuf.ProtobufSchema;
import dev.lockstep.registry.server.EmbeddedSchemaRegistry;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Lockstep's Protobuf serde on the cache-hit path against protobuf-java's own encoding of
 * the same order (no envelope, no message indexes).
 */
@State(Scope.Benchmark)
public class ProtobufCodecBenchmarks {

	private static final byte[] TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
		.getBytes(StandardCharsets.US_ASCII);

	private final ProtoOrder order = ProtoOrder.newBuilder().setId(12345L).setStatus("PAID").setAmountCents(12500L)
		.build();

	private EmbeddedSchemaRegistry registry;

	private RegistryProtobufSerializer<Message> serializer;

	private RegistryProtobufDeserializer<ProtoOrder> deserializer;

	private byte[] raw;

	private byte[] framed;

	private final RecordHeaders recordHeaders = headers();

	@Setup(Level.Trial)
	public void setUp() {
		this.registry = EmbeddedSchemaRegistry.builder().start();
		this.registry.register("orders-value", ProtobufSchema.of(ProtoOrder.getDescriptor()).registrySchema());
		this.serializer = new RegistryProtobufSerializer<>();
		this.serializer.configure(Map.of("schema.registry.url", this.registry.url()), false);
		this.deserializer = new RegistryProtobufDeserializer<>();
		this.deserializer.configure(Map.of("schema.registry.url", this.registry.url(), "specific.protobuf.value.type",
				ProtoOrder.class.getName()), false);
		this.framed = this.serializer.serialize("orders", this.order);
		this.deserializer.deserialize("orders", this.framed);
		this.raw = this.order.toByteArray();
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.registry.close();
	}

	@Benchmark
	public byte[] protobufWrite() {
		return this.order.toByteArray();
	}

	@Benchmark
	public ProtoOrder protobufRead() throws InvalidProtocolBufferException {
		return ProtoOrder.parseFrom(this.raw);
	}

	@Benchmark
	public byte[] lockstepProtobufSerialize() {
		return this.serializer.serialize("orders", this.order);
	}

	@Benchmark
	public ProtoOrder lockstepProtobufDeserialize() {
		return this.deserializer.deserialize("orders", this.framed);
	}

	// As KafkaProducer and a worker call it: with the record's headers (one, as a worker's
	// trace header), a new set per record.
	@Benchmark
	public byte[] lockstepProtobufSerializeWithHeaders() {
		return this.serializer.serialize("orders", headers(), this.order);
	}

	// As a worker's consumer calls it: with the record's headers, no schema id among them.
	@Benchmark
	public ProtoOrder lockstepProtobufDeserializeWithHeaders() {
		return this.deserializer.deserialize("orders", this.recordHeaders, this.framed);
	}

	private static RecordHeaders headers() {
		RecordHeaders headers = new RecordHeaders();
		headers.add("traceparent", TRACEPARENT);
		return headers;
	}

}
