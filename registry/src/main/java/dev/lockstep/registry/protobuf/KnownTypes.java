package dev.lockstep.registry.protobuf;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import com.google.protobuf.AnyProto;
import com.google.protobuf.ApiProto;
import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DurationProto;
import com.google.protobuf.EmptyProto;
import com.google.protobuf.FieldMaskProto;
import com.google.protobuf.SourceContextProto;
import com.google.protobuf.StructProto;
import com.google.protobuf.TimestampProto;
import com.google.protobuf.TypeProto;
import com.google.protobuf.WrappersProto;

/**
 * The files Confluent's clients treat as known types ({@code skip.known.types}): never
 * registered as references, and resolved from built-in descriptors, never from a registry's
 * copy. Protobuf's own ({@code google/protobuf/*}) come from protobuf-java; Google's common
 * types ({@code google/type/*}) from {@code com.google.api.grpc:proto-google-common-protos}
 * when it is on the class path; Confluent's {@code confluent/meta.proto} and
 * {@code confluent/type/decimal.proto} are defined here.
 */
final class KnownTypes {

	/** The artifact that holds Google's common types. */
	static final String COMMON_PROTOS = "com.google.api.grpc:proto-google-common-protos";

	private static final String COMMON_TYPES = "google/type/";

	private static final Set<String> COMMON_TYPE_CLASSES = Set.of("CalendarPeriodProto", "ColorProto", "DateProto",
			"DateTimeProto", "DayOfWeekProto", "DecimalProto", "ExprProto", "FractionProto", "IntervalProto",
			"LatLngProto", "LocalizedTextProto", "MoneyProto", "MonthProto", "PhoneNumberProto", "PostalAddressProto",
			"QuaternionProto", "TimeOfDayProto");

	// Confluent's field metadata (tags such as PII, used by data contracts) and decimal type,
	// as its schema registry defines them.
	private static final String CONFLUENT_META = """
			syntax = "proto3";
			package confluent;
			import "google/protobuf/descriptor.proto";
			option java_package = "io.confluent.protobuf";
			option java_outer_classname = "MetaProto";
			message Meta {
			  string doc = 1;
			  map<string, string> params = 2;
			  repeated string tags = 3;
			}
			extend google.protobuf.FileOptions { Meta file_meta = 1088; }
			extend google.protobuf.MessageOptions { Meta message_meta = 1088; }
			extend google.protobuf.FieldOptions { Meta field_meta = 1088; }
			extend google.protobuf.EnumOptions { Meta enum_meta = 1088; }
			extend google.protobuf.EnumValueOptions { Meta enum_value_meta = 1088; }
			""";

	private static final String CONFLUENT_DECIMAL = """
			syntax = "proto3";
			package confluent.type;
			option java_package = "io.confluent.protobuf.type";
			option java_outer_classname = "DecimalProto";
			message Decimal {
			  bytes value = 1;
			  uint32 precision = 2;
			  int32 scale = 3;
			}
			""";

	private static final Map<String, FileDescriptor> FILES = files();

	private KnownTypes() {
	}

	/**
	 * Return whether a file is a known type, by its import path.
	 * @param name the import path, such as {@code google/type/money.proto}
	 * @return whether it is known
	 */
	static boolean isKnown(String name) {
		return FILES.containsKey(name) || name.startsWith(COMMON_TYPES);
	}

	/**
	 * Return a known type's built-in descriptor.
	 * @param name the import path
	 * @return the descriptor, or {@code null} when the file is no known type
	 * @throws IllegalArgumentException for one of Google's common types without its
	 * artifact on the class path
	 */
	static FileDescriptor file(String name) {
		FileDescriptor file = FILES.get(name);
		if (file == null && name.startsWith(COMMON_TYPES)) {
			boolean present = FILES.keySet().stream().anyMatch((known) -> known.startsWith(COMMON_TYPES));
			throw new IllegalArgumentException("The schema imports " + name + ", one of Google's common types, "
					+ (present ? "which " + COMMON_PROTOS + " on the class path does not hold (a newer version may)"
							: "which Lockstep reads from " + COMMON_PROTOS + ": add it to the class path"));
		}
		return file;
	}

	private static Map<String, FileDescriptor> files() {
		Map<String, FileDescriptor> files = new HashMap<>();
		Stream.of(AnyProto.getDescriptor(), ApiProto.getDescriptor(), DescriptorProtos.getDescriptor(),
				DurationProto.getDescriptor(), EmptyProto.getDescriptor(), FieldMaskProto.getDescriptor(),
				SourceContextProto.getDescriptor(), StructProto.getDescriptor(), TimestampProto.getDescriptor(),
				TypeProto.getDescriptor(), WrappersProto.getDescriptor())
			.forEach((file) -> files.put(file.getName(), file));
		for (String type : COMMON_TYPE_CLASSES) {
			FileDescriptor file = commonType(type);
			if (file != null) {
				files.put(file.getName(), file);
			}
		}
		FileDescriptor meta = confluent("confluent/meta.proto", CONFLUENT_META,
				DescriptorProtos.getDescriptor());
		files.put(meta.getName(), meta);
		FileDescriptor decimal = confluent("confluent/type/decimal.proto", CONFLUENT_DECIMAL);
		files.put(decimal.getName(), decimal);
		return Map.copyOf(files);
	}

	// Google's generated descriptor, when its artifact is on the class path.
	private static FileDescriptor commonType(String outerClass) {
		try {
			Class<?> type = Class.forName("com.google.type." + outerClass, true, KnownTypes.class.getClassLoader());
			return (FileDescriptor) type.getMethod("getDescriptor").invoke(null);
		}
		catch (ReflectiveOperationException | LinkageError ex) {
			return null;
		}
	}

	private static FileDescriptor confluent(String name, String text, FileDescriptor... dependencies) {
		try {
			return FileDescriptor.buildFrom(ProtoParser.parse(name, text), dependencies);
		}
		catch (DescriptorValidationException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
