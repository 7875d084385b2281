package dev.lockstep.registry.server;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.lockstep.registry.protobuf.ProtobufSchema;

/**
 * The Protobuf half of {@link SchemaRules}, apart so that protobuf-java loads only when it
 * is on the class path.
 */
final class ProtobufRules {

	private ProtobufRules() {
	}

	static Object parse(String text, Map<String, String> references) {
		return ProtobufSchema.parse(text, references).file();
	}

	// A schema as Confluent's format=serialized answers it: its file's descriptor, base64.
	static String serialized(String text, Map<String, String> references) {
		return ProtobufSchema.parse(text, references).serializedRegistrySchema(List.of()).text();
	}

	// Whether a schema's text is a base64 serialized descriptor rather than .proto text.
	static boolean isSerialized(String text) {
		try {
			FileDescriptorProto.parseFrom(Base64.getDecoder().decode(text.strip()));
			return true;
		}
		catch (IllegalArgumentException | InvalidProtocolBufferException ex) {
			return false;
		}
	}

	// The text Lockstep prints of a schema's linked file: equal for equal meaning, however written.
	static String canonical(String text, Map<String, String> references) {
		return ProtobufSchema.of(ProtobufSchema.parse(text, references).file()).text();
	}

	static List<String> problems(Object reader, Object writer) {
		List<String> problems = new ArrayList<>();
		for (Descriptor written : messages(((FileDescriptor) writer).getMessageTypes(), new ArrayList<>())) {
			Descriptor read = find((FileDescriptor) reader, written.getFullName());
			if (read == null) {
				continue;
			}
			for (FieldDescriptor field : read.getFields()) {
				FieldDescriptor other = written.findFieldByNumber(field.getNumber());
				if (other == null) {
					if (field.isRequired()) {
						problems.add(field.getFullName() + " is required, and earlier data lacks field "
								+ field.getNumber());
					}
				}
				else if (!wireCompatible(field, other)) {
					problems.add(field.getFullName() + " (field " + field.getNumber() + ") was " + describe(other)
							+ ", now " + describe(field));
				}
			}
		}
		return problems;
	}

	private static List<Descriptor> messages(List<Descriptor> types, List<Descriptor> all) {
		for (Descriptor type : types) {
			all.add(type);
			messages(type.getNestedTypes(), all);
		}
		return all;
	}

	private static Descriptor find(FileDescriptor file, String fullName) {
		for (Descriptor type : messages(file.getMessageTypes(), new ArrayList<>())) {
			if (type.getFullName().equals(fullName)) {
				return type;
			}
		}
		return null;
	}

	// The same wire type and meaning: what protobuf documents as safe to change between.
	private static boolean wireCompatible(FieldDescriptor a, FieldDescriptor b) {
		if (a.isRepeated() != b.isRepeated() || a.isMapField() != b.isMapField()) {
			return false;
		}
		if (group(a) != group(b)) {
			return false;
		}
		return a.getType() != FieldDescriptor.Type.MESSAGE
				|| a.getMessageType().getFullName().equals(b.getMessageType().getFullName());
	}

	private static int group(FieldDescriptor field) {
		return switch (field.getType()) {
			case INT32, INT64, UINT32, UINT64, BOOL, ENUM -> 0;
			case SINT32, SINT64 -> 1;
			case FIXED32, SFIXED32 -> 2;
			case FIXED64, SFIXED64 -> 3;
			case FLOAT -> 4;
			case DOUBLE -> 5;
			case STRING, BYTES -> 6;
			case MESSAGE -> 7;
			case GROUP -> 8;
		};
	}

	private static String describe(FieldDescriptor field) {
		String type = switch (field.getType()) {
			case MESSAGE -> field.getMessageType().getFullName();
			case ENUM -> field.getEnumType().getFullName();
			default -> field.getType().name().toLowerCase(Locale.ROOT);
		};
		return (field.isRepeated() ? "repeated " : "") + type;
	}

}
