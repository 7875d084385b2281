package dev.lockstep.registry.protobuf;

import java.util.Base64;
import java.util.Map;

import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import dev.lockstep.registry.protobuf.test.Catalog;
import dev.lockstep.registry.protobuf.test.Envelope;
import dev.lockstep.registry.protobuf.test.Order;
import dev.lockstep.registry.protobuf.test.TestMessages;
import dev.lockstep.registry.protobuf.test.invoice.Invoice;
import dev.lockstep.registry.protobuf.test.money.Money;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Protobuf schemas as the registry holds them: a generated file printed as {@code .proto}
 * text and read back into the same messages, message indexes that skip map entries, text
 * written by other tools (options, comments, services), and what is refused.
 */
class ProtobufSchemaTests {

	@Test
	void printedTextReadsBackIntoTheSameMessages() throws Exception {
		ProtobufSchema schema = ProtobufSchema.of(Order.getDescriptor());
		ProtobufSchema parsed = ProtobufSchema.parse(schema.text());
		Descriptor order = parsed.file().findMessageTypeByName("Order");
		byte[] bytes = TestMessages.order().toByteArray();
		DynamicMessage dynamic = DynamicMessage.parseFrom(order, bytes);
		assertThat(dynamic.getUnknownFields().asMap()).isEmpty();
		assertThat(dynamic.toByteArray()).isEqualTo(bytes);
		assertThat(ProtoPrinter.print(parsed.file())).isEqualTo(schema.text());
		FieldDescriptor note = order.findFieldByName("note");
		assertThat(note.hasPresence()).isTrue();
		assertThat(dynamic.hasField(note)).isTrue();
		assertThat(order.findFieldByName("attributes").isMapField()).isTrue();
		assertThat(order.findFieldByName("voucher").getRealContainingOneof().getName()).isEqualTo("payment");
	}

	@Test
	void readsTheSerializedDescriptorConfluentsClientsRegister() throws Exception {
		// Confluent's clients register base64(FileDescriptorProto): protoc's descriptor, as
		// generated code holds it.
		ProtobufSchema parsed = ProtobufSchema.parse(serialized(Order.getDescriptor().getFile()));
		Descriptor order = parsed.file().findMessageTypeByName("Order");
		byte[] bytes = TestMessages.order().toByteArray();
		DynamicMessage dynamic = DynamicMessage.parseFrom(order, bytes);
		assertThat(dynamic.getUnknownFields().asMap()).isEmpty();
		assertThat(dynamic.toByteArray()).isEqualTo(bytes);
		assertThat(ProtoPrinter.print(parsed.file())).isEqualTo(ProtobufSchema.of(Order.getDescriptor()).text());
	}

	@Test
	void readsASerializedDescriptorWhoseImportIsSerializedToo() {
		FileDescriptor invoice = Invoice.getDescriptor().getFile();
		FileDescriptor money = invoice.getDependencies().get(0);
		ProtobufSchema parsed = ProtobufSchema.parse(serialized(invoice),
				Map.of(money.getName(), serialized(money)));
		assertThat(parsed.file().findMessageTypeByName("Invoice").findFieldByName("total").getMessageType().getFullName())
			.isEqualTo(Money.getDescriptor().getFullName());
	}

	@Test
	void textThatIsNeitherProtoNorASerializedDescriptorIsRefusedWithTheTextsError() {
		assertThatIllegalArgumentException().isThrownBy(() -> ProtobufSchema.parse("Cg1vcmRlcnMucHJvdG8=!"))
			.withMessageContaining("line 1");
		// Valid base64 of bytes that are no descriptor file.
		assertThatIllegalArgumentException().isThrownBy(() -> ProtobufSchema.parse("QUJD"))
			.withMessageContaining("line 1");
	}

	@Test
	void aSerializedDescriptorIsRefusedWhatTheProtoReaderRefuses() {
		FileDescriptorProto order = Order.getDescriptor().getFile().toProto();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ProtobufSchema.parse(base64(order.toBuilder().setSyntax("editions").build())))
			.withMessageContaining("editions are not supported");
		FileDescriptorProto.Builder grouped = order.toBuilder().setSyntax("proto2");
		grouped.getMessageTypeBuilder(0).addField(FieldDescriptorProto.newBuilder()
			.setName("g")
			.setNumber(99)
			.setType(FieldDescriptorProto.Type.TYPE_GROUP)
			.setTypeName(".lockstep.test.Order"));
		assertThatIllegalArgumentException().isThrownBy(() -> ProtobufSchema.parse(base64(grouped.build())))
			.withMessageContaining("groups are not supported");
		// A dependency that is no reference, as for text.
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ProtobufSchema.parse(serialized(Invoice.getDescriptor().getFile())))
			.withMessageContaining("which is no schema reference of it");
	}

	private static String base64(FileDescriptorProto file) {
		return Base64.getEncoder().encodeToString(file.toByteArray());
	}

	private static String serialized(FileDescriptor file) {
		return Base64.getEncoder().encodeToString(file.toProto().toByteArray());
	}

	@Test
	void printsProto3WithFullyQualifiedTypesAndMaps() {
		String text = ProtobufSchema.of(Envelope.getDescriptor()).text();
		assertThat(text).startsWith("syntax = \"proto3\";\npackage lockstep.test;\n"
				+ "import \"google/protobuf/timestamp.proto\";\n\nmessage Envelope {\n  string source = 1;\n}\n");
		assertThat(text).contains("  repeated .lockstep.test.Order.AttributesEntry attributes = 6;\n")
			.contains("  message AttributesEntry {\n    option map_entry = true;\n    string key = 1;\n")
			.contains("  optional string note = 7;\n")
			.contains("  .google.protobuf.Timestamp placed_at = 8;\n")
			.contains("  oneof payment {\n    string card = 9;\n    string voucher = 10;\n  }\n")
			.contains("  repeated .lockstep.test.Order.Line lines = 5;\n")
			.doesNotContain("java_package");
	}

	@Test
	void messageIndexesCountMapEntriesAsProtocNumbersThem() {
		ProtobufSchema schema = ProtobufSchema.of(Order.getDescriptor());
		assertThat(schema.indexesOf(Envelope.getDescriptor())).containsExactly(0);
		assertThat(schema.indexesOf(Order.getDescriptor())).containsExactly(1);
		// AttributesEntry is Order's first nested type (the map comes before Line in the file).
		assertThat(Order.getDescriptor().getNestedTypes().get(0).getName()).isEqualTo("AttributesEntry");
		assertThat(schema.indexesOf(Order.Line.getDescriptor())).containsExactly(1, 1);
		assertThat(schema.indexesOf(Order.Line.Discount.getDescriptor())).containsExactly(1, 1, 0);
		assertThat(schema.indexesOf(Catalog.Item.getDescriptor())).containsExactly(2, 0);
		assertThat(schema.indexesOf(Catalog.Tag.getDescriptor())).containsExactly(2, 2);
		assertThat(schema.messageAt(new int[] { 1, 1, 0 }).getFullName()).isEqualTo("lockstep.test.Order.Line.Discount");
		assertThat(schema.messageAt(new int[] { 1, 3 })).isNull();
		assertThat(schema.messageAt(new int[] { 3 })).isNull();
		Descriptor other = ProtobufSchema.parse("syntax = \"proto3\"; package lockstep.test; message Other {}").file()
			.findMessageTypeByName("Other");
		assertThatIllegalArgumentException().isThrownBy(() -> schema.indexesOf(other));
	}

	@Test
	void aPrintedSchemaKeepsTheOrderOfNestedTypesAroundAMap() {
		ProtobufSchema parsed = ProtobufSchema.parse(ProtobufSchema.of(Catalog.getDescriptor()).text());
		Descriptor catalog = parsed.file().findMessageTypeByName("Catalog");
		assertThat(catalog.getNestedTypes()).extracting(Descriptor::getName).containsExactly("Item", "ItemsEntry", "Tag");
		assertThat(catalog.findFieldByName("items").isMapField()).isTrue();
		assertThat(parsed.messageAt(new int[] { 2, 2 }).getFullName()).isEqualTo("lockstep.test.Catalog.Tag");
	}

	@Test
	void proto2OneofsAndEscapesReadBack() {
		ProtobufSchema schema = ProtobufSchema.parse("""
				syntax = "proto2";
				message Choice {
				  oneof pick { int32 a = 1; string b = 2 [default = "\\u00e9\\U0001F600"]; }
				}
				""");
		Descriptor choice = schema.messageAt(new int[] { 0 });
		assertThat(choice.findFieldByName("b").getDefaultValue()).isEqualTo("\u00e9\uD83D\uDE00");
		ProtobufSchema again = ProtobufSchema.parse(ProtoPrinter.print(schema.file()));
		assertThat(again.messageAt(new int[] { 0 }).toProto()).isEqualTo(choice.toProto());
	}

	@Test
	void readsTextOtherToolsWrite() {
		ProtobufSchema schema = ProtobufSchema.parse("""
				// Written by hand, as a registry may hold it.
				syntax = "proto3";
				package shop.v1;
				option java_package = "com.example.shop";
				option (my.custom) = { a: 1 b: "x" };
				/* a block
				   comment */
				message Header { string id = 1 [deprecated = true, (ext.opt).x = "y"]; }
				message Order {
				  option deprecated = false;
				  map<string, Header> headers = 1;
				  message Item { sint64 price = 1 [json_name = "p"]; repeated int32 sizes = 2 [packed = false]; }
				  reserved 9, 11 to 15;
				  reserved "legacy";
				  Item item = 2;
				  enum Kind { option allow_alias = true; A = 0; B = 1; ALSO_B = 1 [deprecated = true]; }
				  Kind kind = 3;
				}
				service Orders { rpc Get (Header) returns (Order) { option idempotency_level = NO_SIDE_EFFECTS; } }
				""");
		// HeadersEntry, protoc's type of the map declared first, is Order's nested type 0.
		assertThat(schema.messageAt(new int[] { 1, 1 }).getFullName()).isEqualTo("shop.v1.Order.Item");
		Descriptor item = schema.messageAt(new int[] { 1, 1 });
		assertThat(item.findFieldByName("price").getJsonName()).isEqualTo("p");
		assertThat(item.findFieldByName("sizes").isPacked()).isFalse();
		assertThat(schema.file().findMessageTypeByName("Order").findFieldByName("headers").getMessageType()
			.findFieldByName("value").getMessageType().getFullName()).isEqualTo("shop.v1.Header");
	}

	@Test
	void readsProto2DefaultsAndRequiredFields() {
		ProtobufSchema schema = ProtobufSchema.parse("""
				syntax = "proto2";
				message Legacy {
				  required string id = 1;
				  optional int32 count = 2 [default = -3];
				  optional string label = 3 [default = "a\\"b\\u00e9"];
				  optional bytes raw = 4 [default = "\\001\\xff"];
				  optional double ratio = 5 [default = inf];
				  extensions 100 to max;
				}
				""");
		Descriptor legacy = schema.messageAt(new int[] { 0 });
		assertThat(legacy.findFieldByName("id").isRequired()).isTrue();
		assertThat(legacy.findFieldByName("count").getDefaultValue()).isEqualTo(-3);
		assertThat(legacy.findFieldByName("raw").getDefaultValue().toString()).contains("size=2");
		assertThat(legacy.findFieldByName("ratio").getDefaultValue()).isEqualTo(Double.POSITIVE_INFINITY);
		// Printed and read back: the same message, but for its extension range (not printed).
		assertThat(legacy.toProto().getExtensionRangeList()).hasSize(1);
		assertThat(ProtobufSchema.parse(ProtoPrinter.print(schema.file())).file().toProto().getMessageType(0))
			.isEqualTo(schema.file().toProto().getMessageType(0).toBuilder().clearExtensionRange().build());
	}

	@Test
	void refusesWhatItCannotRead() {
		assertThatIllegalArgumentException().isThrownBy(() -> ProtobufSchema.parse("edition = \"2023\";"))
			.withMessageContaining("editions");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ProtobufSchema.parse("syntax = \"proto2\"; message M { optional group G = 1 {} }"))
			.withMessageContaining("groups");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ProtobufSchema.parse("syntax = \"proto3\"; import \"other.proto\"; message M {}"))
			.withMessageContaining("other.proto").withMessageContaining("no schema reference");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ProtobufSchema.parse("syntax = \"proto3\"; message M { Missing m = 1; }"))
			.withMessageContaining("Missing");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ProtobufSchema.parse("syntax = \"proto3\"; message M { int32 a = 1; int32 b = 1; }"))
			.withMessageContaining("1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ProtobufSchema.parse("syntax = \"proto3\";\nmessage M {\n int32 a = 0; }"))
			.withMessageContaining("line 3");
		String deep = "message M {".repeat(40) + "}".repeat(40);
		assertThatIllegalArgumentException().isThrownBy(() -> ProtobufSchema.parse(deep))
			.withMessageContaining("nested deeper");
		assertThatIllegalArgumentException().isThrownBy(() -> ProtobufSchema.parse("message M { string s = 1"))
			.withMessageContaining("end");
	}

}
