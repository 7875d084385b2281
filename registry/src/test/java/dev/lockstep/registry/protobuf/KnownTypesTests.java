package dev.lockstep.registry.protobuf;

import java.util.Map;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.type.Money;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Imports of the files Confluent's clients treat as known types: read from built-in
 * descriptors whatever the registry holds, and never registered as references.
 */
class KnownTypesTests {

	private static final String PRICED = """
			syntax = "proto3";
			package shop;
			import "google/type/money.proto";
			import "google/type/date.proto";
			import "confluent/meta.proto";
			import "confluent/type/decimal.proto";
			import "lockstep/test/other.proto";
			message Priced {
			  google.type.Money price = 1;
			  google.type.Date due = 2;
			  string owner = 3 [(confluent.field_meta) = { tags: ["PII"] }];
			  confluent.type.Decimal rate = 4;
			  other.Other other = 5;
			}
			""";

	private static final String OTHER = "syntax = \"proto3\"; package other; message Other { string x = 1; }";

	@Test
	void knownImportsComeFromBuiltInDescriptorsAndAreNoReferences() throws Exception {
		// A registry's copy of a known type (here a wrong one) is not read.
		ProtobufSchema schema = ProtobufSchema.parse(PRICED, Map.of("lockstep/test/other.proto", OTHER,
				"google/type/money.proto", "syntax = \"proto3\"; package google.type; message Money { string wrong = 1; }"));
		Descriptor priced = schema.file().findMessageTypeByName("Priced");
		assertThat(priced.findFieldByName("price").getMessageType().getFile()).isSameAs(Money.getDescriptor().getFile());
		assertThat(schema.referencedFiles()).extracting((file) -> file.getName())
			.containsExactly("lockstep/test/other.proto");
		Money price = Money.newBuilder().setCurrencyCode("EUR").setUnits(12).setNanos(500_000_000).build();
		FieldDescriptor rate = priced.findFieldByName("rate");
		DynamicMessage decimal = DynamicMessage.newBuilder(rate.getMessageType())
			.setField(rate.getMessageType().findFieldByName("value"), ByteString.copyFrom(new byte[] { 4, (byte) 0xd2 }))
			.setField(rate.getMessageType().findFieldByName("precision"), 4)
			.setField(rate.getMessageType().findFieldByName("scale"), 2)
			.build();
		DynamicMessage written = DynamicMessage.newBuilder(priced)
			.setField(priced.findFieldByName("price"), price)
			.setField(rate, decimal)
			.build();
		DynamicMessage read = DynamicMessage.parseFrom(priced, written.toByteArray());
		assertThat(Money.parseFrom(((DynamicMessage) read.getField(priced.findFieldByName("price"))).toByteArray()))
			.isEqualTo(price);
		assertThat(read.getField(rate)).isEqualTo(decimal);
	}

	@Test
	void confluentsMetaDeclaresItsOptionsAsConfluentDoes() {
		FieldDescriptor fieldMeta = KnownTypes.file("confluent/meta.proto").findExtensionByName("field_meta");
		assertThat(fieldMeta.getNumber()).isEqualTo(1088);
		assertThat(fieldMeta.getContainingType().getFullName()).isEqualTo("google.protobuf.FieldOptions");
		assertThat(KnownTypes.file("confluent/meta.proto").getExtensions()).extracting(FieldDescriptor::getName)
			.containsExactly("file_meta", "message_meta", "field_meta", "enum_meta", "enum_value_meta");
		assertThat(KnownTypes.file("confluent/meta.proto").findMessageTypeByName("Meta").getFields())
			.extracting((field) -> field.getName() + "=" + field.getNumber())
			.containsExactly("doc=1", "params=2", "tags=3");
	}

	@Test
	void aCommonTypeLockstepDoesNotKnowIsRefusedByName() {
		assertThat(KnownTypes.isKnown("google/type/unheard_of.proto")).isTrue();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ProtobufSchema.parse("syntax = \"proto3\"; import \"google/type/unheard_of.proto\";"))
			.withMessageContaining("imports google/type/unheard_of.proto, one of Google's common types")
			.withMessageContaining("com.google.api.grpc:proto-google-common-protos on the class path does not hold");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ProtobufSchema.parse("syntax = \"proto3\"; import \"lockstep/missing.proto\";"))
			.withMessageContaining("imports lockstep/missing.proto, which is no schema reference of it");
	}

}
