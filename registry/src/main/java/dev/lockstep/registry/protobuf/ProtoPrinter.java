package dev.lockstep.registry.protobuf;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.TextFormat;

/**
 * Writes a file descriptor as {@code .proto} text, the form a registry holds: what
 * {@link ProtoParser} reads back into the same messages. Type names are written fully
 * qualified, so that the text means one thing wherever it is read; nested types keep the
 * descriptor's order, a map's entry type written out as protoc makes it (message indexes
 * count it). File options (Java package names and the like), reserved and extension
 * ranges and a file's extensions are left out, as they do not change how a message is
 * read: the print is the schema's meaning, and a registry's text compared with it stays
 * the same across Lockstep versions.
 */
final class ProtoPrinter {

	private final StringBuilder out = new StringBuilder();

	private ProtoPrinter() {
	}

	/**
	 * Print a file.
	 * @param file the file
	 * @return its text
	 * @throws IllegalArgumentException for an editions file or a proto2 group
	 */
	static String print(FileDescriptor file) {
		FileDescriptorProto proto = file.toProto();
		if (proto.getSyntax().equals("editions")) {
			throw new IllegalArgumentException(file.getName() + " uses Protobuf editions, which are not supported");
		}
		ProtoPrinter printer = new ProtoPrinter();
		printer.file(file, proto);
		return printer.out.toString();
	}

	private void file(FileDescriptor file, FileDescriptorProto proto) {
		this.out.append("syntax = \"").append(proto.getSyntax().equals("proto3") ? "proto3" : "proto2").append("\";\n");
		if (!file.getPackage().isEmpty()) {
			this.out.append("package ").append(file.getPackage()).append(";\n");
		}
		for (int i = 0; i < proto.getDependencyCount(); i++) {
			String kind = proto.getPublicDependencyList().contains(i) ? "public "
					: proto.getWeakDependencyList().contains(i) ? "weak " : "";
			this.out.append("import ").append(kind).append(quote(proto.getDependency(i))).append(";\n");
		}
		for (Descriptor message : file.getMessageTypes()) {
			this.out.append('\n');
			message(message, "");
		}
		for (EnumDescriptor enumeration : file.getEnumTypes()) {
			this.out.append('\n');
			enumeration(enumeration, "");
		}
	}

	private void message(Descriptor message, String indent) {
		this.out.append(indent).append("message ").append(message.getName()).append(" {\n");
		String inner = indent + "  ";
		if (message.getOptions().getMapEntry()) {
			this.out.append(inner).append("option map_entry = true;\n");
		}
		Set<OneofDescriptor> printed = new HashSet<>();
		for (FieldDescriptor field : message.getFields()) {
			OneofDescriptor oneof = field.getRealContainingOneof();
			if (oneof == null) {
				field(field, inner);
			}
			else if (printed.add(oneof)) {
				this.out.append(inner).append("oneof ").append(oneof.getName()).append(" {\n");
				for (FieldDescriptor member : oneof.getFields()) {
					field(member, inner + "  ");
				}
				this.out.append(inner).append("}\n");
			}
		}
		// In the descriptor's order, map entries included: message indexes are positions in it.
		for (Descriptor nested : message.getNestedTypes()) {
			message(nested, inner);
		}
		for (EnumDescriptor enumeration : message.getEnumTypes()) {
			enumeration(enumeration, inner);
		}
		this.out.append(indent).append("}\n");
	}

	private void field(FieldDescriptor field, String indent) {
		FieldDescriptorProto proto = field.toProto();
		this.out.append(indent).append(label(field, proto)).append(type(field)).append(' ');
		this.out.append(field.getName()).append(" = ").append(field.getNumber());
		List<String> options = new ArrayList<>();
		if (proto.hasDefaultValue()) {
			options.add("default = " + defaultValue(field, proto.getDefaultValue()));
		}
		if (proto.getOptions().hasPacked()) {
			options.add("packed = " + proto.getOptions().getPacked());
		}
		if (proto.getOptions().getDeprecated()) {
			options.add("deprecated = true");
		}
		if (proto.hasJsonName() && !proto.getJsonName().equals(ProtoParser.camel(field.getName(), false))) {
			options.add("json_name = " + quote(proto.getJsonName()));
		}
		if (!options.isEmpty()) {
			this.out.append(" [").append(String.join(", ", options)).append(']');
		}
		this.out.append(";\n");
	}

	private static String label(FieldDescriptor field, FieldDescriptorProto proto) {
		if (field.getRealContainingOneof() != null) {
			return "";
		}
		if (field.isRepeated()) {
			return "repeated ";
		}
		if (field.getFile().toProto().getSyntax().equals("proto3")) {
			return proto.getProto3Optional() ? "optional " : "";
		}
		return field.isRequired() ? "required " : "optional ";
	}

	private static String type(FieldDescriptor field) {
		return switch (field.getType()) {
			case MESSAGE -> "." + field.getMessageType().getFullName();
			case ENUM -> "." + field.getEnumType().getFullName();
			case GROUP -> throw new IllegalArgumentException(
					field.getFullName() + " is a proto2 group, which is not supported");
			default -> field.getType().name().toLowerCase(Locale.ROOT);
		};
	}

	private static String defaultValue(FieldDescriptor field, String value) {
		return switch (field.getType()) {
			case STRING -> quote(value);
			// A bytes default is held C-escaped already.
			case BYTES -> "\"" + value + "\"";
			default -> value;
		};
	}

	private void enumeration(EnumDescriptor enumeration, String indent) {
		this.out.append(indent).append("enum ").append(enumeration.getName()).append(" {\n");
		String inner = indent + "  ";
		if (enumeration.getOptions().getAllowAlias()) {
			this.out.append(inner).append("option allow_alias = true;\n");
		}
		for (EnumValueDescriptor value : enumeration.getValues()) {
			this.out.append(inner).append(value.getName()).append(" = ").append(value.getNumber()).append(";\n");
		}
		this.out.append(indent).append("}\n");
	}

	private static String quote(String text) {
		return "\"" + TextFormat.escapeBytes(ByteString.copyFromUtf8(text)) + "\"";
	}

}
