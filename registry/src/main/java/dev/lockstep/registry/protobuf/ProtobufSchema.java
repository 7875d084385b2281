package dev.lockstep.registry.protobuf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.SchemaReference;

/**
 * A Protobuf schema as the registry holds it: one {@code .proto} file's text, and the
 * file descriptor it means. Made from a generated class's descriptor (to register or look
 * up) or parsed from a registry's text (a writer schema): {@code .proto} text, or a
 * base64 serialized {@code FileDescriptorProto} as Confluent's clients register it.
 * Imports of known types ({@code google/protobuf/timestamp.proto}, {@code google/type/*},
 * {@code confluent/meta.proto} and the like) are resolved from built-in descriptors; any
 * other import is a schema reference, given as text when parsing.
 */
public final class ProtobufSchema {

	// The name of a schema's own file given as text, which names no file.
	private static final String UNNAMED = "schema.proto";

	private final FileDescriptor file;

	private final String text;

	private final boolean fileNamed;

	private ProtobufSchema(FileDescriptor file, String text, boolean fileNamed) {
		this.file = file;
		this.text = text;
		this.fileNamed = fileNamed;
	}

	/**
	 * Return the schema of a generated message's file.
	 * @param message the message's descriptor, such as {@code Order.getDescriptor()}
	 * @return the schema
	 * @throws IllegalArgumentException when the file uses editions or proto2 groups
	 */
	public static ProtobufSchema of(Descriptor message) {
		return of(message.getFile());
	}

	/**
	 * Return the schema of a generated file.
	 * @param file the file
	 * @return the schema
	 * @throws IllegalArgumentException when the file uses editions or proto2 groups
	 */
	public static ProtobufSchema of(FileDescriptor file) {
		return new ProtobufSchema(file, ProtoPrinter.print(file), true);
	}

	/**
	 * Return the files this schema's file imports that are not known types (Protobuf's
	 * well-known types, Google's common types, Confluent's {@code meta.proto} and
	 * {@code decimal.proto}, as Confluent's {@code skip.known.types} skips them): each is a
	 * schema reference, named by its import path.
	 * @return the imported files, in import order
	 */
	public List<FileDescriptor> referencedFiles() {
		return this.file.getDependencies().stream()
			.filter((dependency) -> !KnownTypes.isKnown(dependency.getName()))
			.toList();
	}

	/**
	 * Parse a schema's text.
	 * @param text the {@code .proto} text
	 * @return the schema
	 * @throws IllegalArgumentException when the text is no valid schema, or imports other
	 * than known types
	 */
	public static ProtobufSchema parse(String text) {
		return parse(text, Map.of());
	}

	/**
	 * Parse a schema's text whose imports are given as texts, as a registry's schema
	 * references give them.
	 * @param text the {@code .proto} text
	 * @param imports the text of each imported file by its import name; known types need
	 * none (and a copy given is not read)
	 * @return the schema
	 * @throws IllegalArgumentException when the text is no valid schema, an import is
	 * missing, or imports nest deeper than 32 files or form a cycle
	 */
	public static ProtobufSchema parse(String text, Map<String, String> imports) {
		FileRead root = fileProto(null, text);
		FileDescriptor file = build(root.proto(), imports, new HashMap<>(), new ArrayDeque<>());
		return new ProtobufSchema(file, text, root.serialized());
	}

	private static FileDescriptor build(FileDescriptorProto proto, Map<String, String> imports,
			Map<String, FileDescriptor> built, Deque<String> importing) {
		if (importing.size() > ProtoParser.MAX_DEPTH) {
			throw new IllegalArgumentException("Imports nest deeper than " + ProtoParser.MAX_DEPTH + " files");
		}
		importing.push(proto.getName());
		List<FileDescriptor> dependencies = new ArrayList<>();
		for (String dependency : proto.getDependencyList()) {
			// A known type from its built-in descriptor, whatever copy the registry holds.
			FileDescriptor known = KnownTypes.file(dependency);
			if (known == null) {
				known = built.get(dependency);
			}
			if (known == null) {
				String imported = imports.get(dependency);
				if (imported == null) {
					throw new IllegalArgumentException("The schema imports " + dependency
							+ ", which is no schema reference of it and no known type");
				}
				if (importing.contains(dependency)) {
					throw new IllegalArgumentException("Imports form a cycle through " + dependency);
				}
				known = build(fileProto(dependency, imported).proto(), imports, built, importing);
				built.put(dependency, known);
			}
			dependencies.add(known);
		}
		importing.pop();
		try {
			return FileDescriptor.buildFrom(proto, dependencies.toArray(FileDescriptor[]::new));
		}
		catch (DescriptorValidationException ex) {
			throw new IllegalArgumentException("Invalid Protobuf schema: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Read one file of a schema: its {@code .proto} text, or, as Confluent's clients
	 * register it, its {@code FileDescriptorProto} serialized and base64 encoded. Text is
	 * tried first; an imported file takes the name it is imported by, the schema's own file
	 * keeps a descriptor's name (text has none: {@value #UNNAMED}).
	 */
	private static FileRead fileProto(String importedAs, String text) {
		try {
			return new FileRead(ProtoParser.parse((importedAs != null) ? importedAs : UNNAMED, text), false);
		}
		catch (IllegalArgumentException notText) {
			FileDescriptorProto serialized = serialized(text);
			if (serialized == null) {
				throw notText;
			}
			if (serialized.getSyntax().equals("editions")) {
				throw new IllegalArgumentException("Protobuf editions are not supported; use syntax proto2 or proto3");
			}
			serialized.getMessageTypeList().forEach((message) -> refuseGroupsAndDeepNesting(message, 1));
			return new FileRead((importedAs != null) ? serialized.toBuilder().setName(importedAs).build() : serialized,
					true);
		}
	}

	/** A file read from a registry's text, and whether it was a serialized descriptor (which names its file). */
	private record FileRead(FileDescriptorProto proto, boolean serialized) {
	}

	// What the .proto reader refuses, refused of a serialized descriptor too.
	private static void refuseGroupsAndDeepNesting(DescriptorProto message, int depth) {
		if (depth > ProtoParser.MAX_DEPTH) {
			throw new IllegalArgumentException("Messages nested deeper than " + ProtoParser.MAX_DEPTH);
		}
		if (message.getFieldList().stream().anyMatch((field) -> field.getType() == FieldDescriptorProto.Type.TYPE_GROUP)) {
			throw new IllegalArgumentException("proto2 groups are not supported");
		}
		message.getNestedTypeList().forEach((nested) -> refuseGroupsAndDeepNesting(nested, depth + 1));
	}

	/** A serialized descriptor in strict base64, or {@code null} when the text is none. */
	private static FileDescriptorProto serialized(String text) {
		try {
			FileDescriptorProto file = FileDescriptorProto.parseFrom(Base64.getDecoder().decode(text.strip()));
			// Bytes that happen to parse are no file: a registered file has a name.
			return file.getName().isEmpty() ? null : file;
		}
		catch (IllegalArgumentException | InvalidProtocolBufferException ex) {
			return null;
		}
	}

	/**
	 * Return the schema's text: as parsed (the registry's {@code .proto} text or base64
	 * descriptor), or, for a generated file, Lockstep's print of it.
	 * @return the text
	 */
	public String text() {
		return this.text;
	}

	/**
	 * Return the schema as the registry takes it, without references.
	 * @return a {@code PROTOBUF} schema of this text
	 */
	public RegistrySchema registrySchema() {
		return new RegistrySchema(RegistrySchema.PROTOBUF, this.text);
	}

	/**
	 * Return the schema as the registry takes it, with references to its imports.
	 * @param references one reference per {@linkplain #referencedFiles() imported file}
	 * @return a {@code PROTOBUF} schema of this text and these references
	 */
	public RegistrySchema registrySchema(List<SchemaReference> references) {
		return new RegistrySchema(RegistrySchema.PROTOBUF, this.text, references);
	}

	/**
	 * Return the schema as Confluent's clients register it: the file's descriptor,
	 * serialized and base64 encoded, with references to its imports. A field's JSON name is
	 * kept only where the file sets its own: the descriptors protoc generates for Java and
	 * Python carry none, protobuf-java's own descriptors of the well-known types carry every
	 * field's, and the same file must register as the same bytes from any of them (a
	 * {@code json_name} written out equal to the default is left out too).
	 * @param references one reference per {@linkplain #referencedFiles() imported file}
	 * @return a {@code PROTOBUF} schema of the serialized descriptor and these references
	 */
	public RegistrySchema serializedRegistrySchema(List<SchemaReference> references) {
		FileDescriptorProto.Builder file = this.file.toProto().toBuilder();
		file.getMessageTypeBuilderList().forEach(ProtobufSchema::clearDefaultJsonNames);
		file.getExtensionBuilderList().forEach(ProtobufSchema::clearDefaultJsonName);
		return new RegistrySchema(RegistrySchema.PROTOBUF, Base64.getEncoder().encodeToString(file.build().toByteArray()),
				references);
	}

	private static void clearDefaultJsonNames(DescriptorProto.Builder message) {
		message.getFieldBuilderList().forEach(ProtobufSchema::clearDefaultJsonName);
		message.getExtensionBuilderList().forEach(ProtobufSchema::clearDefaultJsonName);
		message.getNestedTypeBuilderList().forEach(ProtobufSchema::clearDefaultJsonNames);
	}

	private static void clearDefaultJsonName(FieldDescriptorProto.Builder field) {
		if (field.getJsonName().equals(ProtoParser.camel(field.getName(), false))) {
			field.clearJsonName();
		}
	}

	/**
	 * Return the file descriptor.
	 * @return the descriptor
	 */
	public FileDescriptor file() {
		return this.file;
	}

	/**
	 * Return the binary name of the class protoc's Java generator made for a message of
	 * this schema's file, from the file's Java options and name.
	 * @param message a message of this schema's file
	 * @return the class name, such as {@code com.example.Orders$Order}
	 * @throws IllegalArgumentException when the name depends on a file name the schema
	 * does not carry (text without {@code java_outer_classname} or
	 * {@code java_multiple_files})
	 */
	public String javaClassName(Descriptor message) {
		return JavaClassNames.of(message, this.fileNamed);
	}

	/**
	 * Return the path of a message in this schema's file, as the wire format writes it:
	 * each index is the message's position among its parent's nested types in the
	 * descriptor, where a map's entry type counts (as Confluent's serializer counts it
	 * without {@code normalize.schemas}).
	 * @param message the message, of this schema's file or of one of the same text
	 * @return its indexes
	 * @throws IllegalArgumentException when the file has no such message
	 */
	public int[] indexesOf(Descriptor message) {
		Deque<Integer> path = new ArrayDeque<>();
		for (Descriptor type = message; type != null; type = type.getContainingType()) {
			path.push(type.getIndex());
		}
		int[] indexes = path.stream().mapToInt(Integer::intValue).toArray();
		Descriptor own = messageAt(indexes);
		if (own == null || !own.getFullName().equals(message.getFullName())) {
			throw new IllegalArgumentException("The schema has no message " + message.getFullName());
		}
		return indexes;
	}

	/**
	 * Return the message at a path.
	 * @param indexes the path read from a message
	 * @return the message, or {@code null} when the file has none there
	 */
	public Descriptor messageAt(int[] indexes) {
		List<Descriptor> types = this.file.getMessageTypes();
		Descriptor message = null;
		for (int index : indexes) {
			if (index >= types.size()) {
				return null;
			}
			message = types.get(index);
			types = message.getNestedTypes();
		}
		return message;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof ProtobufSchema schema && this.text.equals(schema.text);
	}

	@Override
	public int hashCode() {
		return this.text.hashCode();
	}

	@Override
	public String toString() {
		return this.text;
	}

}
