package dev.lockstep.registry.protobuf;

import dev.lockstep.registry.internal.WriterSchemas;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.SchemaIdFraming;
import dev.lockstep.registry.SchemaIdSource;
import dev.lockstep.registry.SchemaReference;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.kafka.RegistryProtobufDeserializer;
import dev.lockstep.registry.kafka.RegistryProtobufSerializer;
import dev.lockstep.registry.kafka.SubjectNameStrategy;
import dev.lockstep.registry.protobuf.test.Envelope;
import dev.lockstep.registry.protobuf.test.Order;
import dev.lockstep.registry.protobuf.test.TestMessages;
import dev.lockstep.registry.protobuf.test.corpus.CorpusProto;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Protobuf codecs against a registry over HTTP: the bytes Confluent's
 * {@code KafkaProtobufSerializer} writes (magic byte 0, the 4-byte big-endian id, the
 * message indexes, the message), reading by the writer's descriptor, evolution, and every
 * way a message can be bad.
 */
class ProtobufCodecsTests {

	private static final int MAX = WireFormat.DEFAULT_MAX_BYTES;

	private final TestSchemaRegistry registry = TestSchemaRegistry.start();

	private final RegistryClient client = RegistryClient.builder(this.registry.url()).retries(0).build();

	private final String orderSchema = ProtobufSchema.of(Order.getDescriptor()).text();

	private final String orderDescriptor = Base64.getEncoder()
		.encodeToString(Order.getDescriptor().getFile().toProto().toByteArray());

	@AfterEach
	void stopRegistry() {
		this.registry.close();
	}

	@Test
	void writesTheConfluentWireFormatWithMessageIndexes() {
		this.registry.register("other-value", "JSON", "{\"type\": \"string\"}");
		long id = this.registry.register("orders-value", "PROTOBUF", this.orderSchema);
		Order order = TestMessages.order();
		Envelope envelope = Envelope.newBuilder().setSource("web").build();
		Order.Line line = order.getLines(0);
		assertThat(id).isEqualTo(2);
		// The file's first message: the single byte 0 after the id.
		assertThat(serializer(Envelope.getDescriptor()).serialize(envelope))
			.isEqualTo(framed("0000000002" + "00", envelope));
		// Order is the second top-level message: count 1, index 1.
		assertThat(serializer(Order.getDescriptor()).serialize(order)).isEqualTo(framed("0000000002" + "0202", order));
		// Line is Order's second nested type, after its map's entry type: [1, 1].
		assertThat(serializer(Order.Line.getDescriptor()).serialize(line))
			.isEqualTo(framed("0000000002" + "040202", line));
		assertThat(serializer(Order.getDescriptor()).serialize(null)).isNull();
	}

	@Test
	void readsIntoTheGeneratedTypeOrTheWritersDescriptor() {
		long id = this.registry.register("orders-value", "PROTOBUF", this.orderSchema);
		Order order = TestMessages.order();
		byte[] message = framed(hexId(id) + "0202", order);
		assertThat(specific(Order.getDefaultInstance()).deserialize(message)).isEqualTo(order);
		DynamicMessage dynamic = dynamic().deserialize(message);
		assertThat(dynamic.getDescriptorForType().getFullName()).isEqualTo("lockstep.test.Order");
		assertThat(dynamic.toByteArray()).isEqualTo(order.toByteArray());
		DynamicMessage discount = dynamic().deserialize(framed(hexId(id) + "06020200", order.getLines(0).getDiscount()));
		assertThat(discount.getDescriptorForType().getFullName()).isEqualTo("lockstep.test.Order.Line.Discount");
		assertThat(specific(Order.getDefaultInstance()).deserialize(null)).isNull();
	}

	@Test
	void readsRecordsWhoseWriterSchemaIsASerializedDescriptor() {
		// How Confluent's clients register a schema: base64(FileDescriptorProto).
		long id = this.registry.register("orders-value", "PROTOBUF", this.orderDescriptor);
		Order order = TestMessages.order();
		byte[] message = framed(hexId(id) + "0202", order);
		assertThat(specific(Order.getDefaultInstance()).deserialize(message)).isEqualTo(order);
		assertThat(dynamic().deserialize(message).toByteArray()).isEqualTo(order.toByteArray());
	}

	@Test
	void looksUpASchemaConfluentsClientsRegisteredAsASerializedDescriptor() {
		long id = this.registry.register("orders-value", "PROTOBUF", this.orderDescriptor);
		assertThat(ProtobufSerializer.of(this.client, "orders-value", Order.getDescriptor()).schemaId()).isEqualTo(id);
		assertThat(this.registry.requestCount("POST /subjects/orders-value")).isEqualTo(1);
	}

	@Test
	void looksUpASchemaRegisteredAsTextWhenTheRegistryComparesTexts() {
		long id = this.registry.register("orders-value", "PROTOBUF", this.orderSchema);
		// A registry comparing schemas by meaning (Confluent's, the embedded one) finds the descriptor.
		assertThat(ProtobufSerializer.of(this.client, "orders-value", Order.getDescriptor()).schemaId()).isEqualTo(id);
		assertThat(this.registry.requestCount("POST /subjects/orders-value")).isEqualTo(1);
		// One comparing texts (Apicurio's) does not: then the printed text is looked up.
		this.client.clearCaches();
		this.registry.failNext(1, 404, 40403);
		assertThat(ProtobufSerializer.of(this.client, "orders-value", Order.getDescriptor()).schemaId()).isEqualTo(id);
		assertThat(this.registry.requestCount("POST /subjects/orders-value")).isEqualTo(3);
	}

	@Test
	void registersTheSerializedDescriptorAsConfluentsClientsDo() {
		long id = ProtobufSerializer.of(this.client, "orders-value", Order.getDescriptor(), SchemaIdSource.AUTO_REGISTER,
				MAX).schemaId();
		assertThat(this.client.schema(id).text()).isEqualTo(this.orderDescriptor);
		// The same file as text is the same schema, not a new version.
		assertThat(this.registry.register("orders-value", "PROTOBUF", this.orderSchema)).isEqualTo(id);
	}

	@Test
	void looksUpAFileConfluentsPythonClientRegisteredWithKnownImportsAsReferences() {
		// Imports google/protobuf/timestamp.proto, and google/type/money.proto through line.proto.
		String line = "syntax = \"proto3\"; package shop; import \"google/type/money.proto\"; "
				+ "message Line { google.type.Money price = 1; }";
		ProtobufSchema priced = ProtobufSchema.parse("syntax = \"proto3\"; package shop; "
				+ "import \"google/protobuf/timestamp.proto\"; import \"shop/line.proto\"; "
				+ "message Priced { google.protobuf.Timestamp at = 1; shop.Line line = 2; }",
				Map.of("shop/line.proto", line));
		// As that client registers with skip.known.types: google/protobuf/* skipped, every other import a reference.
		RegistrySchema money = ProtobufSchema.of(com.google.type.MoneyProto.getDescriptor()).serializedRegistrySchema(List.of());
		this.registry.register("google/type/money.proto", money);
		List<SchemaReference> lineReferences = List.of(new SchemaReference("google/type/money.proto",
				"google/type/money.proto", 1));
		this.registry.register("shop/line.proto", ProtobufSchema.of(priced.file().getDependencies().get(1))
			.serializedRegistrySchema(lineReferences));
		long id = this.registry.register("priced-value", priced.serializedRegistrySchema(
				List.of(new SchemaReference("shop/line.proto", "shop/line.proto", 1))));
		assertThat(ProtobufSerializer.of(this.client, "priced-value", priced.file().findMessageTypeByName("Priced"))
			.schemaId()).isEqualTo(id);
		// The descriptor and the text miss at line.proto (registered with its reference), every import
		// referenced misses at the timestamp subject (none), then this form finds both.
		assertThat(this.registry.requestCount("POST /subjects/shop/line.proto")).isEqualTo(3);
		assertThat(this.registry.requestCount("POST /subjects/google/protobuf/timestamp.proto")).isEqualTo(1);
		assertThat(this.registry.requestCount("POST /subjects/priced-value")).isEqualTo(1);
	}

	@Test
	void aRegistryFailingTheSecondLookUpIsReportedAsItselfNotAsNotFound() {
		this.registry.failNext(1, 404, 40403);
		this.registry.failNext(1, 503, 50301);
		assertThatExceptionOfType(RegistryException.class)
			.isThrownBy(() -> ProtobufSerializer.of(this.client, "orders-value", Order.getDescriptor()))
			.satisfies((ex) -> assertThat(ex.statusCode()).isEqualTo(503));
	}

	@Test
	void roundTripsThroughTheKafkaSerdesWithConfluentKeys() {
		RegistryProtobufSerializer<Message> serializer = new RegistryProtobufSerializer<>();
		serializer.configure(Map.of("schema.registry.url", this.registry.url(), "auto.register.schemas", true), false);
		RegistryProtobufDeserializer<Order> deserializer = new RegistryProtobufDeserializer<>();
		deserializer.configure(Map.of("schema.registry.url", this.registry.url(), "specific.protobuf.value.type",
				Order.class.getName()), false);
		Order order = TestMessages.order();
		assertThat(deserializer.deserialize("orders", serializer.serialize("orders", order))).isEqualTo(order);
		assertThat(this.client.latestSubjectVersion("orders-value").schema().text()).isEqualTo(this.orderDescriptor);
		RegistryProtobufSerializer<Message> byRecord = new RegistryProtobufSerializer<>(this.client, false,
				SchemaIdSource.AUTO_REGISTER, SubjectNameStrategy.RECORD_NAME, SchemaIdFraming.PREFIX, MAX);
		byRecord.serialize("orders", Envelope.getDefaultInstance());
		assertThat(this.client.latestSubjectVersion("lockstep.test.Envelope").schema().text()).isEqualTo(this.orderDescriptor);
		RegistryProtobufDeserializer<Message> derived = new RegistryProtobufDeserializer<>();
		derived.configure(Map.of("schema.registry.url", this.registry.url(), "derive.type", true), false);
		assertThat(derived.deserialize("orders", serializer.serialize("orders", order))).isEqualTo(order);
		assertThat(derived.deserialize("orders", byRecord.serialize("orders", Envelope.getDefaultInstance())))
			.isInstanceOf(Envelope.class);
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> new RegistryProtobufDeserializer<>().configure(Map.of("schema.registry.url",
					this.registry.url(), "derive.type", true, "specific.protobuf.value.type", Order.class.getName()),
					false))
			.withMessageContaining("derive.type=true contradicts specific.protobuf.value.type");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> new RegistryProtobufDeserializer<>().configure(Map.of("schema.registry.url",
					this.registry.url(), "specific.protobuf.value.type", String.class.getName()), false))
			.withMessageContaining("Not a generated Protobuf message class");
	}

	@Test
	void readsEachMessageIntoTheGeneratedClassItsWriterNames() throws Exception {
		ProtobufDeserializer<Message> derived = ProtobufDeserializer.specificByWriterName(this.client,
				getClass().getClassLoader(), MAX, 8);
		// As Confluent's clients register a file: its descriptor, whose options and name say where the class is.
		long serialized = this.registry.register("orders-value", "PROTOBUF", this.orderDescriptor);
		Order order = TestMessages.order();
		assertThat(derived.deserialize(framed(hexId(serialized) + "0202", order))).isEqualTo(order);
		assertThat(derived.deserialize(framed(hexId(serialized) + "040202", order.getLines(0))))
			.isEqualTo(order.getLines(0));
		// As Confluent's Java clients register it: the .proto text, its options kept.
		long text = this.registry.register("orders-text", "PROTOBUF",
				Files.readString(Path.of("src/test/protobuf/lockstep/test/orders.proto")));
		assertThat(derived.deserialize(framed(hexId(text) + "00", Envelope.getDefaultInstance())))
			.isInstanceOf(Envelope.class);
		// java_outer_classname: the class nested in the outer class.
		long corpus = this.registry.register("corpus-value", "PROTOBUF",
				Base64.getEncoder().encodeToString(CorpusProto.getDescriptor().toProto().toByteArray()));
		CorpusProto.Tag tag = CorpusProto.Tag.newBuilder().setName("t").build();
		assertThat(derived.deserialize(framed(hexId(corpus) + "0202", tag))).isEqualTo(tag);
	}

	@Test
	void refusesAWriterMessageWithoutItsOwnGeneratedClassAsInvalidData() {
		ProtobufDeserializer<Message> derived = ProtobufDeserializer.specificByWriterName(this.client,
				getClass().getClassLoader(), MAX, 8);
		// Text printed without options (as Lockstep registered it before) names no file to derive from.
		invalid(derived, framed(hexId(this.registry.register("a", "PROTOBUF", this.orderSchema)) + "00",
				Envelope.getDefaultInstance()), "no java_outer_classname or java_multiple_files option and no file name");
		invalid(derived, framed(hexId(this.registry.register("b", "PROTOBUF", "syntax = \"proto3\"; package nowhere; "
				+ "option java_multiple_files = true; message Ghost {}")) + "00", Envelope.getDefaultInstance()),
				"No generated class nowhere.Ghost of writer message nowhere.Ghost");
		invalid(derived, framed(hexId(this.registry.register("c", "PROTOBUF", "syntax = \"proto3\"; package other; "
				+ "option java_package = \"dev.lockstep.registry.protobuf.test\"; option java_multiple_files = true; "
				+ "message Order {}")) + "00", Envelope.getDefaultInstance()),
				"dev.lockstep.registry.protobuf.test.Order is a lockstep.test.Order, not the writer's other.Order");
		invalid(derived, framed(hexId(this.registry.register("d", "PROTOBUF", "syntax = \"proto3\"; "
				+ "option java_package = \"java.lang\"; option java_multiple_files = true; message String {}")) + "00",
				Envelope.getDefaultInstance()), "java.lang.String, named by writer message String, is not a generated");
	}

	@Test
	void aClassLoadedForOneWriterIsCheckedAgainstEveryOther() throws Exception {
		ProtobufDeserializer<Message> derived = ProtobufDeserializer.specificByWriterName(this.client,
				getClass().getClassLoader(), MAX, 8);
		long corpus = this.registry.register("corpus-value", "PROTOBUF",
				Base64.getEncoder().encodeToString(CorpusProto.getDescriptor().toProto().toByteArray()));
		CorpusProto.Tag tag = CorpusProto.Tag.newBuilder().setName("t").build();
		assertThat(derived.deserialize(framed(hexId(corpus) + "0202", tag))).isEqualTo(tag);
		// Another writer's other.Tag names the same class, which is no other.Tag.
		long other = this.registry.register("other-value", "PROTOBUF", "syntax = \"proto2\"; package other; "
				+ "option java_package = \"dev.lockstep.registry.protobuf.test.corpus\"; "
				+ "option java_outer_classname = \"CorpusProto\"; message Entry {} message Tag {}");
		invalid(derived, framed(hexId(other) + "0202", tag),
				"CorpusProto$Tag is a lockstep.test.corpus.Tag, not the writer's other.Tag");
	}

	@Test
	void readsNewerWritersKeepingTheirFieldsAsUnknown() {
		// Version 2 of Order adds a field; a reader generated from version 1 keeps it.
		String v2 = this.orderSchema.replace("  int64 amount_cents = 3;\n",
				"  int64 amount_cents = 3;\n  string channel = 20;\n");
		long id = this.registry.register("orders-value", "PROTOBUF", v2);
		Descriptor writer = ProtobufSchema.parse(v2).file().findMessageTypeByName("Order");
		DynamicMessage written = DynamicMessage.newBuilder(writer)
			.setField(writer.findFieldByName("order_id"), "o-9")
			.setField(writer.findFieldByName("channel"), "app")
			.build();
		Order read = specific(Order.getDefaultInstance()).deserialize(framed(hexId(id) + "0202", written));
		assertThat(read.getOrderId()).isEqualTo("o-9");
		assertThat(read.getUnknownFields().hasField(20)).isTrue();
		assertThat(read.toByteArray()).isEqualTo(written.toByteArray());
	}

	@Test
	void refusesEveryKindOfBadMessageAsInvalidData() {
		long id = this.registry.register("orders-value", "PROTOBUF", this.orderSchema);
		long jsonId = this.registry.register("other-value", "JSON", "{\"type\": \"string\"}");
		long badSchema = this.registry.register("bad-value", "PROTOBUF", "syntax = \"proto3\"; message M { X x = 1; }");
		Order order = TestMessages.order();
		ProtobufDeserializer<Order> orders = specific(Order.getDefaultInstance());
		invalid(orders, framed(hexId(id) + "00", order), "wrote a lockstep.test.Envelope, not a lockstep.test.Order");
		invalid(orders, framed(hexId(id) + "0206", order), "name no message");
		invalid(orders, framed(hexId(id) + "0202", HexFormat.of().parseHex("0aff")), "Malformed lockstep.test.Order");
		invalid(dynamic(), framed(hexId(id) + "0202", HexFormat.of().parseHex("0aff")), "Malformed");
		for (int answer = 1; answer < WriterSchemas.UNKNOWN_ID_ANSWERS; answer++) {
			assertThatThrownBy(() -> orders.deserialize(framed("00000003e7" + "0202", order)))
				.isInstanceOf(SerializationException.class)
				.isNotInstanceOf(InvalidDataException.class)
				.hasMessageContaining("unknown to the registry");
		}
		invalid(orders, framed("00000003e7" + "0202", order), "Unknown schema id 999");
		invalid(orders, framed(hexId(jsonId) + "0202", order), "is a JSON schema, not PROTOBUF");
		invalid(orders, framed(hexId(badSchema) + "00", order), "Writer schema " + badSchema);
		invalid(orders, HexFormat.of().parseHex("02" + hexId(id).substring(2) + "00"), "magic byte");
		invalid(orders, HexFormat.of().parseHex(hexId(id)), "end before the payload");
	}

	@Test
	void refusesAValueOfAnotherTypeAndAnOversizedMessage() {
		this.registry.register("orders-value", "PROTOBUF", this.orderSchema);
		ProtobufSerializer<Message> orders = serializer(Order.getDescriptor());
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> orders.serialize(Envelope.getDefaultInstance()))
			.withMessageContaining("lockstep.test.Envelope given to the serializer of lockstep.test.Order");
		ProtobufSerializer<Order> small = ProtobufSerializer.of(this.client, "orders-value", Order.getDescriptor(),
				SchemaIdSource.LOOKUP, 16);
		assertThatExceptionOfType(InvalidDataException.class)
			.isThrownBy(() -> small.serialize(TestMessages.order()))
			.withMessageContaining("exceeds the limit of 16 bytes");
	}

	@Test
	void writesWithTheLatestVersionOnlyWhenItIsTheTypesOwnSchema() {
		long id = this.registry.register("orders-value", "PROTOBUF", this.orderSchema);
		assertThat(ProtobufSerializer.of(this.client, "orders-value", Order.getDescriptor(),
				SchemaIdSource.LATEST_VERSION, MAX).schemaId()).isEqualTo(id);
		this.registry.register("orders-value", "PROTOBUF", this.orderSchema.replace("customer = 2", "buyer = 2"));
		assertThatExceptionOfType(SerializationException.class)
			.isThrownBy(() -> ProtobufSerializer.of(this.client, "orders-value", Order.getDescriptor(),
					SchemaIdSource.LATEST_VERSION, MAX))
			.withMessageContaining("is not the messages' schema");
	}

	private static void invalid(ProtobufDeserializer<?> deserializer, byte[] message, String reason) {
		assertThatExceptionOfType(InvalidDataException.class).isThrownBy(() -> deserializer.deserialize(message))
			.withMessageContaining(reason);
	}

	private <T extends Message> ProtobufSerializer<T> serializer(Descriptor descriptor) {
		return ProtobufSerializer.of(this.client, "orders-value", descriptor);
	}

	private <T extends Message> ProtobufDeserializer<T> specific(T defaultInstance) {
		return ProtobufDeserializer.specific(this.client, defaultInstance, MAX, 8);
	}

	private ProtobufDeserializer<DynamicMessage> dynamic() {
		return ProtobufDeserializer.dynamic(this.client, MAX, 8);
	}

	private static String hexId(long id) {
		return "00" + String.format("%08x", id);
	}

	// The documented layout, built by hand: envelope and indexes in hex, then the message's bytes.
	static byte[] framed(String hexHeader, Message message) {
		return framed(hexHeader, message.toByteArray());
	}

	static byte[] framed(String hexHeader, byte[] payload) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.writeBytes(HexFormat.of().parseHex(hexHeader));
		out.writeBytes(payload);
		return out.toByteArray();
	}

}
