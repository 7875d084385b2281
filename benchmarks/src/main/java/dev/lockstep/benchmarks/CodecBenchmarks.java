package dev.lockstep.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;

import dev.lockstep.registry.kafka.RegistryAvroDeserializer;
import dev.lockstep.registry.kafka.RegistryAvroSerializer;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.server.EmbeddedSchemaRegistry;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Lockstep's registry serde on the cache-hit path against Avro's own
 * {@code SpecificDatumWriter}/{@code SpecificDatumReader} used as well as they can be
 * (encoder, decoder and output buffer reused), on the sample's {@code Order}.
 */
@State(Scope.Benchmark)
public class CodecBenchmarks {

	private final Order order = new Order(12345L, "PAID", 12500L);

	private final SpecificDatumWriter<Order> writer = new SpecificDatumWriter<>(Order.class);

	private final SpecificDatumReader<Order> reader = new SpecificDatumReader<>(Order.class);

	private EmbeddedSchemaRegistry registry;

	private RegistryAvroSerializer<Order> serializer;

	private RegistryAvroDeserializer<Order> deserializer;

	private byte[] raw;

	private byte[] framed;

	@Setup(Level.Trial)
	public void setUp() throws IOException {
		this.registry = EmbeddedSchemaRegistry.builder().start();
		this.registry.register("orders-value", new RegistrySchema(RegistrySchema.AVRO, Order.getClassSchema().toString()));
		Map<String, Object> configs = Map.of("schema.registry.url", this.registry.url(), "lockstep.avro.value.type",
				Order.class.getName());
		this.serializer = new RegistryAvroSerializer<>();
		this.serializer.configure(configs, false);
		this.deserializer = new RegistryAvroDeserializer<>();
		this.deserializer.configure(configs, false);
		this.framed = this.serializer.serialize("orders", this.order);
		this.deserializer.deserialize("orders", this.framed);
		this.raw = rawEncode(new RawBuffers());
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.registry.close();
	}

	/**
	 * Per-thread reusable Avro encoder, decoder and output buffer for the baselines.
	 */
	@State(Scope.Thread)
	public static class RawBuffers {

		final ByteArrayOutputStream out = new ByteArrayOutputStream(64);

		BinaryEncoder encoder;

		BinaryDecoder decoder;

	}

	@Benchmark
	public byte[] rawEncode(RawBuffers buffers) throws IOException {
		buffers.out.reset();
		buffers.encoder = EncoderFactory.get().binaryEncoder(buffers.out, buffers.encoder);
		this.writer.write(this.order, buffers.encoder);
		buffers.encoder.flush();
		return buffers.out.toByteArray();
	}

	@Benchmark
	public Order rawDecode(RawBuffers buffers) throws IOException {
		buffers.decoder = DecoderFactory.get().binaryDecoder(this.raw, buffers.decoder);
		return this.reader.read(null, buffers.decoder);
	}

	@Benchmark
	public byte[] lockstepSerialize() {
		return this.serializer.serialize("orders", this.order);
	}

	@Benchmark
	public Order lockstepDeserialize() {
		return this.deserializer.deserialize("orders", this.framed);
	}

}
