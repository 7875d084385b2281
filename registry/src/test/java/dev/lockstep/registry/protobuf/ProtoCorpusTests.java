package dev.lockstep.registry.protobuf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.google.protobuf.DescriptorProtos.FileOptions;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import dev.lockstep.registry.protobuf.test.Order;
import dev.lockstep.registry.protobuf.test.corpus.CorpusProto;
import dev.lockstep.registry.protobuf.test.invoice.Invoice;
import dev.lockstep.registry.protobuf.test.money.Money;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hand-written {@code .proto} reader against protoc: every {@code .proto} file of
 * this module's tests, read from its source as written (comments, options, services,
 * defaults, reserved ranges, imports), means what protoc compiled it to: the same messages,
 * fields, types, numbers, labels, defaults, oneofs and nesting, printed alike.
 */
class ProtoCorpusTests {

	private static final Path SOURCES = Path.of("src/test/protobuf");

	// protoc's descriptor of each file, by its import path.
	private static final Map<String, FileDescriptor> COMPILED = Map.of(
			"lockstep/test/orders.proto", Order.getDescriptor().getFile(),
			"lockstep/test/money.proto", Money.getDescriptor().getFile(),
			"lockstep/test/invoice.proto", Invoice.getDescriptor().getFile(),
			"lockstep/test/corpus.proto", CorpusProto.getDescriptor());

	static List<String> files() throws IOException {
		try (Stream<Path> files = Files.walk(SOURCES)) {
			return files.filter((file) -> file.toString().endsWith(".proto"))
				.map((file) -> SOURCES.relativize(file).toString().replace('\\', '/'))
				.sorted()
				.toList();
		}
	}

	@ParameterizedTest
	@MethodSource("files")
	void eachSourceFileMeansWhatProtocCompiledItTo(String name) throws IOException {
		assertThat(COMPILED).as("protoc's descriptor of " + name).containsKey(name);
		Map<String, String> sources = new HashMap<>();
		for (String file : files()) {
			sources.put(file, Files.readString(SOURCES.resolve(file)));
		}
		FileDescriptor compiled = COMPILED.get(name);
		FileDescriptor parsed = ProtobufSchema.parse(sources.get(name), sources).file();
		assertThat(ProtoPrinter.print(parsed)).isEqualTo(ProtoPrinter.print(compiled));
		assertThat(parsed.getPackage()).isEqualTo(compiled.getPackage());
		assertThat(parsed.getMessageTypes()).hasSameSizeAs(compiled.getMessageTypes());
		for (int i = 0; i < compiled.getMessageTypes().size(); i++) {
			assertSameMessage(parsed.getMessageTypes().get(i), compiled.getMessageTypes().get(i));
		}
		assertThat(parsed.getEnumTypes()).extracting((type) -> type.toProto().getValueList())
			.isEqualTo(compiled.getEnumTypes().stream().map((type) -> type.toProto().getValueList()).toList());
		// Where protoc's Java classes are, and the file's own extensions.
		FileOptions javaNames = javaNames(compiled.getOptions());
		assertThat(parsed.getOptions()).isEqualTo(javaNames);
		assertThat(parsed.getExtensions()).extracting(ProtoCorpusTests::extension)
			.isEqualTo(compiled.getExtensions().stream().map(ProtoCorpusTests::extension).toList());
	}

	private static String extension(FieldDescriptor extension) {
		return extension.getContainingType().getFullName() + " " + extension.toProto().getLabel() + " "
				+ extension.getType() + " " + extension.getName() + " = " + extension.getNumber();
	}

	private static FileOptions javaNames(FileOptions options) {
		FileOptions.Builder names = FileOptions.newBuilder();
		if (options.hasJavaPackage()) {
			names.setJavaPackage(options.getJavaPackage());
		}
		if (options.hasJavaOuterClassname()) {
			names.setJavaOuterClassname(options.getJavaOuterClassname());
		}
		if (options.hasJavaMultipleFiles()) {
			names.setJavaMultipleFiles(options.getJavaMultipleFiles());
		}
		return names.build();
	}

	// An enum default by its full name: each file's descriptor has its own value objects.
	private static Object comparable(Object value) {
		return (value instanceof EnumValueDescriptor enumValue) ? enumValue.getFullName() : value;
	}

	private static void assertSameMessage(Descriptor parsed, Descriptor compiled) {
		assertThat(parsed.getFullName()).isEqualTo(compiled.getFullName());
		assertThat(parsed.getFields()).as(compiled.getFullName()).hasSameSizeAs(compiled.getFields());
		for (int i = 0; i < compiled.getFields().size(); i++) {
			FieldDescriptor field = parsed.getFields().get(i);
			FieldDescriptor expected = compiled.getFields().get(i);
			String what = expected.getFullName();
			assertThat(field.getName()).as(what).isEqualTo(expected.getName());
			assertThat(field.getNumber()).as(what).isEqualTo(expected.getNumber());
			assertThat(field.getType()).as(what).isEqualTo(expected.getType());
			assertThat(field.isRepeated()).as(what).isEqualTo(expected.isRepeated());
			assertThat(field.isRequired()).as(what).isEqualTo(expected.isRequired());
			assertThat(field.isPacked()).as(what).isEqualTo(expected.isPacked());
			assertThat(field.hasPresence()).as(what).isEqualTo(expected.hasPresence());
			assertThat(field.isMapField()).as(what).isEqualTo(expected.isMapField());
			assertThat(field.hasDefaultValue()).as(what).isEqualTo(expected.hasDefaultValue());
			if (expected.hasDefaultValue()) {
				assertThat(comparable(field.getDefaultValue())).as(what).isEqualTo(comparable(expected.getDefaultValue()));
			}
			assertThat(field.getRealContainingOneof() == null ? null : field.getRealContainingOneof().getName())
				.as(what)
				.isEqualTo(expected.getRealContainingOneof() == null ? null
						: expected.getRealContainingOneof().getName());
			if (expected.getType() == FieldDescriptor.Type.MESSAGE) {
				assertThat(field.getMessageType().getFullName()).as(what)
					.isEqualTo(expected.getMessageType().getFullName());
			}
			if (expected.getType() == FieldDescriptor.Type.ENUM) {
				assertThat(field.getEnumType().getFullName()).as(what).isEqualTo(expected.getEnumType().getFullName());
			}
		}
		assertThat(parsed.toProto().getExtensionRangeList()).as(compiled.getFullName())
			.isEqualTo(compiled.toProto().getExtensionRangeList());
		assertThat(parsed.getNestedTypes()).as(compiled.getFullName()).hasSameSizeAs(compiled.getNestedTypes());
		for (int i = 0; i < compiled.getNestedTypes().size(); i++) {
			assertSameMessage(parsed.getNestedTypes().get(i), compiled.getNestedTypes().get(i));
		}
	}

}
