package dev.lockstep.benchmarks;

import java.io.IOException;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockstep.registry.kafka.RegistryJsonSchemaDeserializer;
import dev.lockstep.registry.kafka.RegistryJsonSchemaSerializer;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.server.EmbeddedSchemaRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Lockstep's JSON Schema serde on the cache-hit path, validating as it does by default,
 * against Jackson's own {@code ObjectMapper} writing and reading the same order (no
 * envelope, no validation).
 */
@State(Scope.Benchmark)
public class JsonCodecBenchmarks {

	static final String SCHEMA = """
			{"$schema": "http://json-schema.org/draft-07/schema#", "title": "Order", "type": "object",
			 "properties": {"id": {"type": "integer"}, "status": {"type": "string", "maxLength": 64},
			                "amountCents": {"type": "integer", "minimum": 0}},
			 "required": ["id", "status", "amountCents"], "additionalProperties": false}
			""";

	private final JsonOrder order = new JsonOrder(12345L, "PAID", 12500L);

	private final ObjectMapper mapper = new ObjectMapper();

	private EmbeddedSchemaRegistry registry;

	private RegistryJsonSchemaSerializer<JsonOrder> serializer;

	private RegistryJsonSchemaDeserializer<JsonOrder> deserializer;

	private byte[] raw;

	private byte[] framed;

	@Setup(Level.Trial)
	public void setUp() throws IOException {
		this.registry = EmbeddedSchemaRegistry.builder().start();
		this.registry.register("orders-value", RegistrySchema.json(SCHEMA));
		this.serializer = new RegistryJsonSchemaSerializer<>();
		this.serializer.configure(Map.of("schema.registry.url", this.registry.url(), "use.latest.version", true),
				false);
		this.deserializer = new RegistryJsonSchemaDeserializer<>();
		this.deserializer.configure(
				Map.of("schema.registry.url", this.registry.url(), "json.value.type", JsonOrder.class.getName()), false);
		this.framed = this.serializer.serialize("orders", this.order);
		this.deserializer.deserialize("orders", this.framed);
		this.raw = this.mapper.writeValueAsBytes(this.order);
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.registry.close();
	}

	@Benchmark
	public byte[] jacksonWrite() throws IOException {
		return this.mapper.writeValueAsBytes(this.order);
	}

	@Benchmark
	public JsonOrder jacksonRead() throws IOException {
		return this.mapper.readValue(this.raw, JsonOrder.class);
	}

	@Benchmark
	public byte[] lockstepJsonSerialize() {
		return this.serializer.serialize("orders", this.order);
	}

	@Benchmark
	public JsonOrder lockstepJsonDeserialize() {
		return this.deserializer.deserialize("orders", this.framed);
	}

	/**
	 * The order as JSON.
	 *
	 * @param id the order's id
	 * @param status its status
	 * @param amountCents its amount in cents
	 */
	public record JsonOrder(long id, String status, long amountCents) {

	}

}
