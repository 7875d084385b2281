package dev.lockstep.registry.avro;

import dev.lockstep.registry.internal.WriterSchemas;
import java.time.Duration;
import java.util.Arrays;

import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.SchemaIdSource;
import dev.lockstep.registry.test.Order;
import dev.lockstep.registry.test.OrderV2;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AvroCodecsTests {

	private final TestSchemaRegistry registry = TestSchemaRegistry.start();

	private final RegistryClient client = RegistryClient.builder(this.registry.url())
		.retries(0)
		.timeout(Duration.ofSeconds(2))
		.build();

	private final Order order = new Order(1L, "PAID", 12500L);

	@AfterEach
	void stopRegistry() {
		this.registry.close();
	}

	@Test
	void serializerResolvesTheIdAtConstructionAndFramesTheRawDatum() {
		long id = this.registry.register("orders-value", Order.getClassSchema());
		AvroSerializer<Order> serializer = AvroSerializer.specific(this.client, "orders-value", Order.class);
		assertThat(serializer.schemaId()).isEqualTo(id);
		int lookups = this.registry.totalRequests();
		byte[] framed = serializer.serialize(this.order);
		assertThat(this.registry.totalRequests()).isEqualTo(lookups);
		assertThat(framed).isEqualTo(WireFormat.frame(id, new RawAvroCodec<>(Order.class).encode(this.order), 100));
	}

	@Test
	void serializerFailsAtConstructionWhenTheSchemaIsNotRegistered() {
		assertThatExceptionOfType(RegistryException.class)
			.isThrownBy(() -> AvroSerializer.specific(this.client, "orders-value", Order.class))
			.satisfies((ex) -> assertThat(ex.errorCode()).isEqualTo(40401));
		assertThat(this.registry.requestCount("POST /subjects/orders-value/versions")).isZero();
	}

	@Test
	void serializerRegistersOnlyWhenAskedTo() {
		AvroSerializer<Order> serializer = AvroSerializer.specific(this.client, "orders-value", Order.class,
				SchemaIdSource.AUTO_REGISTER, WireFormat.DEFAULT_MAX_BYTES);
		assertThat(this.client.schemaById(serializer.schemaId())).isEqualTo(Order.getClassSchema());
	}

	@Test
	void serializerUsesTheLatestVersionOnlyWhenItIsTheRecordsSchema() {
		long id = this.registry.register("orders-value", Order.getClassSchema());
		assertThat(AvroSerializer.specific(this.client, "orders-value", Order.class, SchemaIdSource.LATEST_VERSION,
				WireFormat.DEFAULT_MAX_BYTES).schemaId()).isEqualTo(id);
		this.registry.register("orders-value", OrderV2.getClassSchema());
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> AvroSerializer.specific(this.client, "orders-value", Order.class,
					SchemaIdSource.LATEST_VERSION, WireFormat.DEFAULT_MAX_BYTES))
			.withMessageContaining("is not the record's schema");
	}

	@Test
	void tombstonesStayNull() {
		this.registry.register("orders-value", Order.getClassSchema());
		assertThat(AvroSerializer.specific(this.client, "orders-value", Order.class).serialize(null)).isNull();
		assertThat(AvroDeserializer.specific(this.client, Order.class).deserialize(null)).isNull();
		// The serializer's look-up and its schema's data contract; nothing for the tombstones.
		assertThat(this.registry.totalRequests()).isEqualTo(2);
	}

	@Test
	void deserializerRoundTripsAndPreparesOneReaderPerWriterId() {
		long id = this.registry.register("orders-value", Order.getClassSchema());
		byte[] framed = AvroSerializer.specific(this.client, "orders-value", Order.class).serialize(this.order);
		AvroDeserializer<Order> deserializer = AvroDeserializer.specific(this.client, Order.class);
		assertThat(deserializer.deserialize(framed)).isEqualTo(this.order);
		assertThat(deserializer.deserialize(framed)).isEqualTo(this.order);
		assertThat(this.registry.requestCount("GET /schemas/ids/" + id)).isEqualTo(1);
	}

	@Test
	void genericDeserializerReadsTheWriterSchema() {
		long id = this.registry.register("orders-value", Order.getClassSchema());
		byte[] framed = WireFormat.frame(id, new RawAvroCodec<>(Order.class).encode(this.order), 100);
		GenericRecord record = AvroDeserializer.generic(this.client, 100, 4).deserialize(framed);
		assertThat(record.get("status")).hasToString("PAID");
		assertThat(record.get("amount_cents")).isEqualTo(12500L);
	}

	@Test
	void genericSerializerRefusesRecordsOfAnotherSchema() {
		Schema schema = SchemaBuilder.record("Thing").fields().requiredLong("id").endRecord();
		Schema other = SchemaBuilder.record("Other").fields().requiredLong("id").endRecord();
		this.registry.register("things-value", schema);
		AvroSerializer<GenericRecord> serializer = AvroSerializer.generic(this.client, "things-value", schema,
				SchemaIdSource.LOOKUP, 100);
		GenericRecord thing = new GenericData.Record(schema);
		thing.put("id", 5L);
		assertThat(serializer.serialize(thing)).hasSize(6);
		GenericRecord wrong = new GenericData.Record(other);
		wrong.put("id", 5L);
		assertThatExceptionOfType(SerializationException.class).isThrownBy(() -> serializer.serialize(wrong))
			.withMessageContaining("does not match");
	}

	@Test
	void evolutionAddsAFieldWithItsDefaultAndRenamesThroughAliases() {
		long id = this.registry.register("orders-value", Order.getClassSchema());
		byte[] written = AvroSerializer.specific(this.client, "orders-value", Order.class).serialize(this.order);
		OrderV2 read = AvroDeserializer.specific(this.client, OrderV2.class).deserialize(written);
		assertThat(read.getId()).isEqualTo(1L);
		assertThat(read.getAmount()).isEqualTo(12500L);
		assertThat(read.getCurrency()).isEqualTo("EUR");
		assertThat(this.registry.requestCount("GET /schemas/ids/" + id)).isEqualTo(1);
	}

	@Test
	void evolutionIgnoresAFieldTheReaderRemoved() {
		AvroSerializer<OrderV2> newer = AvroSerializer.specific(this.client, "orders-value", OrderV2.class,
				SchemaIdSource.AUTO_REGISTER, WireFormat.DEFAULT_MAX_BYTES);
		byte[] written = newer.serialize(new OrderV2(3L, "REFUNDED", 7800L, "USD"));
		Schema writerWithoutAliases = OrderV2.getClassSchema();
		assertThat(writerWithoutAliases.getField("currency")).isNotNull();
		// Order has no 'currency' and no 'amount': 'amount' cannot be read as 'amount_cents'
		// without an alias on the reader, so this evolution is refused.
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> AvroDeserializer.specific(this.client, Order.class).deserialize(written))
			.withMessageContaining("cannot be read as dev.lockstep.registry.test.Order");

		Schema withExtraField = SchemaBuilder.record("Order")
			.namespace("dev.lockstep.registry.test")
			.fields()
			.requiredLong("id")
			.requiredString("status")
			.requiredLong("amount_cents")
			.requiredString("channel")
			.endRecord();
		AvroSerializer<GenericRecord> extra = AvroSerializer.generic(this.client, "orders-extra-value", withExtraField,
				SchemaIdSource.AUTO_REGISTER, 1000);
		GenericRecord record = new GenericData.Record(withExtraField);
		record.put("id", 4L);
		record.put("status", "PAID");
		record.put("amount_cents", 10L);
		record.put("channel", "web");
		assertThat(AvroDeserializer.specific(this.client, Order.class).deserialize(extra.serialize(record)))
			.isEqualTo(new Order(4L, "PAID", 10L));
	}

	@Test
	void incompatibleEvolutionIsInvalidData() {
		Schema idAsString = SchemaBuilder.record("Order")
			.namespace("dev.lockstep.registry.test")
			.fields()
			.requiredString("id")
			.requiredString("status")
			.requiredLong("amount_cents")
			.endRecord();
		long id = this.registry.register("orders-value", idAsString);
		byte[] framed = WireFormat.frame(id, new byte[] { 2, 'x', 0, 0 }, 100);
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> AvroDeserializer.specific(this.client, Order.class).deserialize(framed))
			.withMessageContaining("cannot be read as");
	}

	@Test
	void unknownSchemaIdIsRetriedThenInvalidDataOnceTheRegistrySaidSoEnoughTimes() {
		byte[] framed = WireFormat.frame(77, new byte[] { 2 }, 100);
		// A registry follower may not yet know an id its leader just assigned.
		for (int answer = 1; answer < WriterSchemas.UNKNOWN_ID_ANSWERS; answer++) {
			assertThatThrownBy(() -> AvroDeserializer.specific(this.client, Order.class).deserialize(framed))
				.isInstanceOf(SerializationException.class)
				.isNotInstanceOf(InvalidDataException.class)
				.hasMessageContaining("Schema id 77 is unknown to the registry (answer " + answer + " of 5");
		}
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> AvroDeserializer.specific(this.client, Order.class).deserialize(framed))
			.withMessageContaining("Unknown schema id 77")
			.withCauseInstanceOf(RegistryException.class);
	}

	@Test
	void anIdOfAnotherFormatsSchemaOrOfAnInvalidSchemaIsInvalidData() {
		long json = this.registry.register("orders-json-value", "JSON", "{\"type\": \"object\"}");
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> AvroDeserializer.specific(this.client, Order.class)
				.deserialize(WireFormat.frame(json, new byte[] { 2 }, 100)))
			.withMessageContaining("JSON schema, not AVRO");
		this.registry.respondNext(1, 200, java.util.Map.of(),
				"{\"schema\": \"{\\\"type\\\": \\\"nope\\\"}\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> AvroDeserializer.specific(this.client, Order.class)
				.deserialize(WireFormat.frame(4242, new byte[] { 2 }, 100)))
			.withMessageContaining("invalid Avro schema");
	}

	@Test
	void registryOutageIsASerializationFailureButNotInvalidData() {
		long id = this.registry.register("orders-value", Order.getClassSchema());
		byte[] framed = AvroSerializer.specific(this.client, "orders-value", Order.class).serialize(this.order);
		// The serializer fetched the schema to check its data contract: a reader meets the outage cold.
		this.client.clearCaches();
		this.registry.stop();
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> AvroDeserializer.specific(this.client, Order.class).deserialize(framed))
			.isNotInstanceOf(InvalidDataException.class)
			.withCauseInstanceOf(RegistryException.class)
			.satisfies((ex) -> assertThat(((RegistryException) ex.getCause()).isRetryable()).isTrue());
		this.registry.restart();
		assertThat(AvroDeserializer.specific(this.client, Order.class).deserialize(framed)).isEqualTo(this.order);
		// The serializer's, then the reader's once the registry is back: none while it was down.
		assertThat(this.registry.requestCount("GET /schemas/ids/" + id)).isEqualTo(2);
	}

	@Test
	void malformedFramesAreInvalidData() {
		long id = this.registry.register("orders-value", Order.getClassSchema());
		byte[] framed = AvroSerializer.specific(this.client, "orders-value", Order.class).serialize(this.order);
		AvroDeserializer<Order> deserializer = AvroDeserializer.specific(this.client, Order.class, 64, 4);
		byte[] badMagic = framed.clone();
		// 1 is a GUID's magic byte (Confluent Platform 8); 2 is no magic byte.
		badMagic[0] = 2;
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> deserializer.deserialize(badMagic))
			.withMessageContaining("magic byte");
		byte[] trailing = Arrays.copyOf(framed, framed.length + 2);
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> deserializer.deserialize(trailing))
			.withMessageContaining("2 trailing bytes");
		byte[] truncated = Arrays.copyOf(framed, framed.length - 1);
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> deserializer.deserialize(truncated))
			.withMessageContaining("Truncated");
		byte[] oversized = WireFormat.frame(id, new byte[60], 100);
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> deserializer.deserialize(oversized))
			.withMessageContaining("exceeds the limit of 64 bytes");
	}

	@Test
	void untrustedSchemasNeverChooseTheClassThatIsInstantiated() {
		// A writer schema naming a JDK class, with a java-class hint on a string field.
		Schema hostile = new Schema.Parser().parse("""
				{"type": "record", "name": "ProcessBuilder", "namespace": "java.lang", "fields": [
				  {"name": "id", "type": "long"},
				  {"name": "status", "type": {"type": "string", "java-class": "java.io.File"}},
				  {"name": "amount_cents", "type": "long"}]}""");
		long id = this.registry.register("hostile-value", hostile);
		byte[] framed = WireFormat.frame(id, new RawAvroCodec<>(Order.class).encode(this.order), 100);
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> AvroDeserializer.specific(this.client, Order.class).deserialize(framed));
		GenericRecord generic = AvroDeserializer.generic(this.client, 100, 4).deserialize(framed);
		assertThat(generic).isInstanceOf(GenericData.Record.class);
		assertThat(generic.get("status")).isNotInstanceOf(java.io.File.class).hasToString("PAID");
		// Same name as the reader: resolution works, and the reader's own schema decides types.
		Schema namedLikeOrder = new Schema.Parser().parse(hostile.toString()
			.replace("\"ProcessBuilder\"", "\"Order\"")
			.replace("\"java.lang\"", "\"dev.lockstep.registry.test\""));
		long orderLikeId = this.registry.register("order-like-value", namedLikeOrder);
		byte[] orderLike = WireFormat.frame(orderLikeId, new RawAvroCodec<>(Order.class).encode(this.order), 100);
		assertThat(AvroDeserializer.specific(this.client, Order.class).deserialize(orderLike)).isEqualTo(this.order);
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> AvroTypes.trustedRecordClass("java.lang.ProcessBuilder", getClass().getClassLoader()))
			.withMessageContaining("not a generated Avro record");
		assertThat(AvroTypes.trustedRecordClass(Order.class.getName(), getClass().getClassLoader()))
			.isEqualTo(Order.class);
	}

	@Test
	void writerSchemaWithAHugeFixedIsRefusedBeforeAllocating() {
		Schema hostile = new Schema.Parser().parse("""
				{"type": "record", "name": "Blob", "fields": [
				  {"name": "data", "type": {"type": "fixed", "name": "Huge", "size": 2000000000}}]}""");
		long id = this.registry.register("blob-value", hostile);
		byte[] framed = WireFormat.frame(id, new byte[] { 1, 2, 3 }, 100);
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> AvroDeserializer.generic(this.client, 1000, 4).deserialize(framed))
			.withMessageContaining("fixed Huge of 2000000000 bytes");
	}

}
