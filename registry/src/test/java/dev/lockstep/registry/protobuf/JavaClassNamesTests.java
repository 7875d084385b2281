package dev.lockstep.registry.protobuf;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The names protoc's Java generator gives a message's class. The expected names are those
 * protoc 4.36.2 generated for the same files ({@code protoc --java_out}).
 */
class JavaClassNamesTests {

	@Test
	void theOuterClassIsTheFilesBaseNameInCamelCase() throws Exception {
		FileDescriptor file = file("dir/order_events2x.proto", "syntax = \"proto3\"; package a.b; "
				+ "message OrderEvents2x { string x = 1; } message Other { message In { int32 y = 1; } }");
		assertThat(JavaClassNames.of(file.findMessageTypeByName("OrderEvents2x"), true))
			.isEqualTo("a.b.OrderEvents2X$OrderEvents2x");
		assertThat(JavaClassNames.of(file.findMessageTypeByName("Other").getNestedTypes().get(0), true))
			.isEqualTo("a.b.OrderEvents2X$Other$In");
		assertThat(JavaClassNames.of(file("foo__bar9baz_x.proto", "syntax = \"proto3\"; package p; message Z {}")
			.findMessageTypeByName("Z"), true)).isEqualTo("p.FooBar9BazX$Z");
	}

	@Test
	void aTypeOfTheOuterClassesNameAnywhereInTheFileAddsOuterClass() throws Exception {
		assertThat(JavaClassNames.of(file("my-file_v2.name.proto",
				"syntax = \"proto3\"; message Q { string x = 1; } enum MyFileV2Name { A = 0; }")
			.findMessageTypeByName("Q"), true)).isEqualTo("MyFileV2NameOuterClass$Q");
		assertThat(JavaClassNames.of(file("nested_x.proto",
				"syntax = \"proto3\"; package n; message A { message NestedX { int32 y = 1; } }")
			.findMessageTypeByName("A"), true)).isEqualTo("n.NestedXOuterClass$A");
		assertThat(JavaClassNames.of(file("en_w.proto", "syntax = \"proto3\"; package e; message M { enum EnW { Q = 0; } }")
			.findMessageTypeByName("M"), true)).isEqualTo("e.EnWOuterClass$M");
		// Case matters: caseY is no CaseY.
		assertThat(JavaClassNames.of(file("case_y.proto", "syntax = \"proto3\"; package c; message caseY {}")
			.findMessageTypeByName("caseY"), true)).isEqualTo("c.CaseY$caseY");
	}

	@Test
	void aServiceOfTheOuterClassesNameAddsOuterClassToo() throws Exception {
		// The .proto reader skips services: the service is added to its descriptor.
		FileDescriptorProto proto = ProtoParser.parse("svc_z.proto", "syntax = \"proto3\"; package s; message M {}")
			.toBuilder()
			.addService(ServiceDescriptorProto.newBuilder()
				.setName("SvcZ")
				.addMethod(MethodDescriptorProto.newBuilder().setName("Get").setInputType(".s.M").setOutputType(".s.M")))
			.build();
		assertThat(JavaClassNames.of(FileDescriptor.buildFrom(proto, new FileDescriptor[0]).findMessageTypeByName("M"),
				true)).isEqualTo("s.SvcZOuterClass$M");
	}

	@Test
	void javaOptionsNameThePackageAndTheOuterClassOrNone() throws Exception {
		String options = "syntax = \"proto3\"; package p; option java_package = \"com.example\"; ";
		assertThat(JavaClassNames.of(file("x.proto", options + "option java_outer_classname = \"Events\"; message M {}")
			.findMessageTypeByName("M"), false)).isEqualTo("com.example.Events$M");
		assertThat(JavaClassNames.of(file("x.proto", options + "option java_multiple_files = true; "
				+ "message M { message N {} }").findMessageTypeByName("M").getNestedTypes().get(0), false))
			.isEqualTo("com.example.M$N");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> JavaClassNames.of(file("x.proto", options + "message M {}").findMessageTypeByName("M"),
					false))
			.withMessageContaining("p.M has no java_outer_classname or java_multiple_files option and no file name");
	}

	private static FileDescriptor file(String name, String text) throws DescriptorValidationException {
		return FileDescriptor.buildFrom(ProtoParser.parse(name, text), new FileDescriptor[0]);
	}

}
