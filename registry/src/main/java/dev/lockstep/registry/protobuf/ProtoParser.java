package dev.lockstep.registry.protobuf;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumOptions;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldOptions;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileOptions;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import com.google.protobuf.TextFormat;
import dev.lockstep.registry.protobuf.ProtoTokenizer.Kind;
import dev.lockstep.registry.protobuf.ProtoTokenizer.Token;

/**
 * Reads {@code .proto} text, as a registry holds a Protobuf schema, into the
 * {@link FileDescriptorProto} protoc would make of it: syntax, package, imports, messages
 * (fields, maps, oneofs, proto3 {@code optional}, nesting) and enums. Options other than a
 * field's {@code packed}, {@code default}, {@code json_name} and {@code deprecated}, an
 * enum's {@code allow_alias} and a file's Java names ({@code java_package},
 * {@code java_outer_classname}, {@code java_multiple_files}: where a generated class is),
 * services, extensions declared inside a message and reserved ranges do not change how a
 * message is read and are skipped; a file's own extensions and a message's extension
 * ranges are kept. Editions and proto2 groups are refused. Nesting is
 * limited, so that hostile text cannot exhaust the stack.
 */
final class ProtoParser {

	/** The deepest nesting of messages read. */
	static final int MAX_DEPTH = 32;

	private static final Map<String, FieldDescriptorProto.Type> SCALARS = Map.ofEntries(
			Map.entry("double", FieldDescriptorProto.Type.TYPE_DOUBLE),
			Map.entry("float", FieldDescriptorProto.Type.TYPE_FLOAT),
			Map.entry("int64", FieldDescriptorProto.Type.TYPE_INT64),
			Map.entry("uint64", FieldDescriptorProto.Type.TYPE_UINT64),
			Map.entry("int32", FieldDescriptorProto.Type.TYPE_INT32),
			Map.entry("fixed64", FieldDescriptorProto.Type.TYPE_FIXED64),
			Map.entry("fixed32", FieldDescriptorProto.Type.TYPE_FIXED32),
			Map.entry("bool", FieldDescriptorProto.Type.TYPE_BOOL),
			Map.entry("string", FieldDescriptorProto.Type.TYPE_STRING),
			Map.entry("bytes", FieldDescriptorProto.Type.TYPE_BYTES),
			Map.entry("uint32", FieldDescriptorProto.Type.TYPE_UINT32),
			Map.entry("sfixed32", FieldDescriptorProto.Type.TYPE_SFIXED32),
			Map.entry("sfixed64", FieldDescriptorProto.Type.TYPE_SFIXED64),
			Map.entry("sint32", FieldDescriptorProto.Type.TYPE_SINT32),
			Map.entry("sint64", FieldDescriptorProto.Type.TYPE_SINT64));

	private static final Set<String> LABELS = Set.of("optional", "required", "repeated");

	private final List<Token> tokens;

	private int position;

	private boolean proto3;

	private ProtoParser(List<Token> tokens) {
		this.tokens = tokens;
	}

	/**
	 * Parse a schema.
	 * @param name the file name given to the result
	 * @param text the {@code .proto} text
	 * @return the file's descriptor proto, its types not yet resolved
	 * @throws IllegalArgumentException naming the line of the first error
	 */
	static FileDescriptorProto parse(String name, String text) {
		return new ProtoParser(ProtoTokenizer.tokenize(text)).file(name);
	}

	private FileDescriptorProto file(String name) {
		FileDescriptorProto.Builder file = FileDescriptorProto.newBuilder().setName(name);
		if (accept("syntax")) {
			expect("=");
			String syntax = string();
			expect(";");
			if (!syntax.equals("proto2") && !syntax.equals("proto3")) {
				throw error("Unknown syntax \"" + syntax + "\"");
			}
			this.proto3 = syntax.equals("proto3");
			file.setSyntax(syntax);
		}
		while (!atEnd()) {
			String word = word();
			switch (word) {
				case ";" -> {
				}
				case "edition" -> throw error("Protobuf editions are not supported; use syntax proto2 or proto3");
				case "package" -> {
					file.setPackage(name());
					expect(";");
				}
				case "import" -> {
					if (accept("public")) {
						file.addPublicDependency(file.getDependencyCount());
					}
					else if (accept("weak")) {
						file.addWeakDependency(file.getDependencyCount());
					}
					file.addDependency(string());
					expect(";");
				}
				case "option" -> fileOption(file);
				case "message" -> file.addMessageType(message(1));
				case "enum" -> file.addEnumType(enumeration());
				case "extend" -> extend(file);
				case "service" -> {
					name();
					skipBlock();
				}
				default -> throw error("Unexpected '" + word + "'");
			}
		}
		return file.build();
	}

	private DescriptorProto message(int depth) {
		if (depth > MAX_DEPTH) {
			throw error("Messages nested deeper than " + MAX_DEPTH);
		}
		DescriptorProto.Builder message = DescriptorProto.newBuilder().setName(identifier());
		expect("{");
		List<OneofDescriptorProto> synthetic = new ArrayList<>();
		Set<Integer> optionals = new HashSet<>();
		while (!accept("}")) {
			String word = peek();
			switch (word) {
				case ";" -> next();
				case "option" -> {
					next();
					String option = optionName();
					expect("=");
					if (option.equals("map_entry")) {
						// An entry type written out, as Confluent's registry prints maps.
						message.setOptions(MessageOptions.newBuilder().setMapEntry(bool()));
						expect(";");
					}
					else {
						skipStatement();
					}
				}
				case "extensions" -> {
					next();
					extensionRanges(message);
				}
				case "reserved" -> skipStatement();
				case "message" -> {
					next();
					message.addNestedType(message(depth + 1));
				}
				case "enum" -> {
					next();
					message.addEnumType(enumeration());
				}
				case "extend" -> {
					next();
					name();
					skipBlock();
				}
				case "oneof" -> {
					next();
					int index = message.getOneofDeclCount();
					message.addOneofDecl(OneofDescriptorProto.newBuilder().setName(identifier()));
					expect("{");
					while (!accept("}")) {
						if (accept("option")) {
							skipStatement();
						}
						else if (!accept(";")) {
							message.addField(field(null).setOneofIndex(index));
						}
					}
				}
				case "map" -> {
					if (peekAt(1).equals("<")) {
						next();
						message.addField(mapField(message));
					}
					else {
						message.addField(field(label()));
					}
				}
				default -> {
					FieldDescriptorProto.Label label = label();
					FieldDescriptorProto.Builder field = field(label);
					if (this.proto3 && label == FieldDescriptorProto.Label.LABEL_OPTIONAL) {
						optionals.add(message.getFieldCount());
					}
					message.addField(field);
				}
			}
		}
		// proto3 optional: each field in a synthetic oneof of its own, after the real ones.
		if (!optionals.isEmpty()) {
			Set<String> names = new HashSet<>();
			message.getFieldList().forEach((field) -> names.add(field.getName()));
			message.getOneofDeclList().forEach((oneof) -> names.add(oneof.getName()));
			message.getNestedTypeList().forEach((type) -> names.add(type.getName()));
			message.getEnumTypeList().forEach((type) -> names.add(type.getName()));
			for (int i = 0; i < message.getFieldCount(); i++) {
				FieldDescriptorProto.Builder field = message.getFieldBuilder(i);
				if (optionals.contains(i)) {
					field.setProto3Optional(true).setOneofIndex(message.getOneofDeclCount() + synthetic.size());
					synthetic.add(OneofDescriptorProto.newBuilder().setName(syntheticName(names, field.getName())).build());
				}
			}
		}
		synthetic.forEach(message::addOneofDecl);
		return message.build();
	}

	// As protoc names it: the field's name with a leading "_", then "X" prefixed while it clashes.
	private static String syntheticName(Set<String> names, String field) {
		String name = field.startsWith("_") ? field : "_" + field;
		while (!names.add(name)) {
			name = "X" + name;
		}
		return name;
	}

	private FieldDescriptorProto.Label label() {
		String word = peek();
		if (LABELS.contains(word) && !peekAt(2).equals("=")) {
			next();
			if (peek().equals("group")) {
				throw error("proto2 groups are not supported");
			}
			return switch (word) {
				case "optional" -> FieldDescriptorProto.Label.LABEL_OPTIONAL;
				case "required" -> FieldDescriptorProto.Label.LABEL_REQUIRED;
				default -> FieldDescriptorProto.Label.LABEL_REPEATED;
			};
		}
		if (word.equals("group")) {
			throw error("proto2 groups are not supported");
		}
		return null;
	}

	// A field; label null for none (proto3 singular, a oneof member).
	private FieldDescriptorProto.Builder field(FieldDescriptorProto.Label label) {
		FieldDescriptorProto.Builder field = FieldDescriptorProto.newBuilder()
			.setLabel((label != null) ? label : FieldDescriptorProto.Label.LABEL_OPTIONAL);
		type(field, name());
		field.setName(identifier());
		expect("=");
		field.setNumber(fieldNumber());
		fieldOptions(field);
		expect(";");
		return field;
	}

	private FieldDescriptorProto.Builder mapField(DescriptorProto.Builder message) {
		expect("<");
		String keyType = name();
		expect(",");
		String valueType = name();
		expect(">");
		String name = identifier();
		expect("=");
		int number = fieldNumber();
		String entryName = camel(name, true) + "Entry";
		FieldDescriptorProto.Builder key = FieldDescriptorProto.newBuilder().setName("key").setNumber(1)
			.setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL).setJsonName("key");
		FieldDescriptorProto.Builder value = FieldDescriptorProto.newBuilder().setName("value").setNumber(2)
			.setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL).setJsonName("value");
		type(key, keyType);
		type(value, valueType);
		// protoc's synthetic entry message, nested where the map is declared.
		message.addNestedType(DescriptorProto.newBuilder().setName(entryName).addField(key).addField(value)
			.setOptions(MessageOptions.newBuilder().setMapEntry(true)));
		FieldDescriptorProto.Builder field = FieldDescriptorProto.newBuilder().setName(name).setNumber(number)
			.setLabel(FieldDescriptorProto.Label.LABEL_REPEATED).setTypeName(entryName);
		fieldOptions(field);
		expect(";");
		return field;
	}

	private static void type(FieldDescriptorProto.Builder field, String type) {
		FieldDescriptorProto.Type scalar = SCALARS.get(type);
		if (scalar != null) {
			field.setType(scalar);
		}
		else {
			// Message or enum: resolved when the descriptor is built.
			field.setTypeName(type);
		}
	}

	// A file's extensions of another message (custom options, proto2 extensions).
	private void extend(FileDescriptorProto.Builder file) {
		String extendee = name();
		expect("{");
		while (!accept("}")) {
			if (!accept(";")) {
				file.addExtension(field(label()).setExtendee(extendee));
			}
		}
	}

	// "extensions 100 to 199, 500 to max;": the numbers other files may extend the message with.
	private void extensionRanges(DescriptorProto.Builder message) {
		do {
			int start = fieldNumber();
			int end = start;
			if (accept("to")) {
				end = accept("max") ? 536_870_911 : fieldNumber();
			}
			message.addExtensionRange(DescriptorProto.ExtensionRange.newBuilder().setStart(start).setEnd(end + 1));
		}
		while (accept(","));
		if (accept("[")) {
			skipUntil("]");
		}
		expect(";");
	}

	// The options that say where protoc's Java classes of the file are; others skipped.
	private void fileOption(FileDescriptorProto.Builder file) {
		String option = optionName();
		expect("=");
		FileOptions.Builder options = file.getOptionsBuilder();
		switch (option) {
			case "java_package" -> options.setJavaPackage(string());
			case "java_outer_classname" -> options.setJavaOuterClassname(string());
			case "java_multiple_files" -> options.setJavaMultipleFiles(bool());
			default -> skipValue();
		}
		expect(";");
		if (options.build().equals(FileOptions.getDefaultInstance())) {
			file.clearOptions();
		}
	}

	private void fieldOptions(FieldDescriptorProto.Builder field) {
		if (!accept("[")) {
			return;
		}
		FieldOptions.Builder options = FieldOptions.newBuilder();
		do {
			String option = optionName();
			expect("=");
			switch (option) {
				case "packed" -> options.setPacked(bool());
				case "deprecated" -> options.setDeprecated(bool());
				case "json_name" -> field.setJsonName(string());
				case "default" -> field.setDefaultValue(defaultValue(field));
				default -> skipValue();
			}
		}
		while (accept(","));
		expect("]");
		if (!options.build().equals(FieldOptions.getDefaultInstance())) {
			field.setOptions(options);
		}
	}

	private String defaultValue(FieldDescriptorProto.Builder field) {
		if (field.getType() == FieldDescriptorProto.Type.TYPE_STRING) {
			return new String(bytes(), StandardCharsets.UTF_8);
		}
		if (field.getType() == FieldDescriptorProto.Type.TYPE_BYTES) {
			return TextFormat.escapeBytes(ByteString.copyFrom(bytes()));
		}
		String sign = accept("-") ? "-" : "";
		Token token = next();
		if (token.kind() == Kind.STRING || token.kind() == Kind.SYMBOL) {
			throw error("Bad default value '" + token.text() + "'");
		}
		if (!field.hasType()) {
			// A named type, resolved later: an enum's value name.
			return sign + token.text();
		}
		try {
			// As protoc writes a default into the descriptor, so that one file reads as one schema.
			return switch (field.getType()) {
				case TYPE_DOUBLE -> ProtocDefaults.doubleText(Double.parseDouble(sign + number(token.text())));
				case TYPE_FLOAT -> ProtocDefaults.floatText(Float.parseFloat(sign + number(token.text())));
				case TYPE_INT32, TYPE_INT64, TYPE_UINT32, TYPE_UINT64, TYPE_SINT32, TYPE_SINT64, TYPE_FIXED32,
						TYPE_FIXED64, TYPE_SFIXED32, TYPE_SFIXED64 -> ProtocDefaults.integerText(sign, token.text());
				default -> sign + token.text();
			};
		}
		catch (NumberFormatException ex) {
			throw error("Bad default value '" + sign + token.text() + "'");
		}
	}

	// protoc's spellings of a float's special values, as Java parses them.
	private static String number(String text) {
		return switch (text) {
			case "inf" -> "Infinity";
			case "nan" -> "NaN";
			default -> text;
		};
	}

	private EnumDescriptorProto enumeration() {
		EnumDescriptorProto.Builder enumeration = EnumDescriptorProto.newBuilder().setName(identifier());
		expect("{");
		while (!accept("}")) {
			if (accept(";")) {
				continue;
			}
			if (peek().equals("reserved") && !peekAt(1).equals("=")) {
				skipStatement();
				continue;
			}
			if (peek().equals("option") && !peekAt(1).equals("=")) {
				next();
				String option = optionName();
				expect("=");
				if (option.equals("allow_alias")) {
					enumeration.setOptions(EnumOptions.newBuilder().setAllowAlias(bool()));
					expect(";");
				}
				else {
					skipStatement();
				}
				continue;
			}
			String name = identifier();
			expect("=");
			boolean negative = accept("-");
			long number = integer();
			number = negative ? -number : number;
			if (number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
				throw error("Enum value " + number + " is out of range");
			}
			if (accept("[")) {
				skipUntil("]");
			}
			expect(";");
			enumeration.addValue(EnumValueDescriptorProto.newBuilder().setName(name).setNumber((int) number));
		}
		return enumeration.build();
	}

	private int fieldNumber() {
		long number = integer();
		if (number < 1 || number > 536_870_911) {
			throw error("Field number " + number + " is out of range");
		}
		return (int) number;
	}

	private long integer() {
		Token token = next();
		if (token.kind() != Kind.NUMBER) {
			throw error("Expected a number, found '" + token.text() + "'");
		}
		String text = token.text().toLowerCase(Locale.ROOT);
		try {
			if (text.startsWith("0x")) {
				return Long.parseLong(text.substring(2), 16);
			}
			if (text.length() > 1 && text.startsWith("0")) {
				return Long.parseLong(text.substring(1), 8);
			}
			return Long.parseLong(text);
		}
		catch (NumberFormatException ex) {
			throw error("Expected an integer, found '" + token.text() + "'");
		}
	}

	private boolean bool() {
		String word = word();
		if (!word.equals("true") && !word.equals("false")) {
			throw error("Expected true or false, found '" + word + "'");
		}
		return word.equals("true");
	}

	// An option's name: simple, dotted, or a parenthesised extension name and its fields.
	private String optionName() {
		StringBuilder name = new StringBuilder();
		if (accept("(")) {
			name.append('(').append(name()).append(')');
			expect(")");
		}
		else {
			name.append(name());
		}
		while (!atEnd() && peekToken().kind() == Kind.WORD && peek().startsWith(".")) {
			name.append(next().text());
		}
		return name.toString();
	}

	private void skipValue() {
		if (accept("{")) {
			skipUntil("}");
			return;
		}
		accept("-");
		Token token = next();
		if (token.kind() == Kind.SYMBOL) {
			throw error("Unexpected '" + token.text() + "'");
		}
		while (token.kind() == Kind.STRING && !atEnd() && peekToken().kind() == Kind.STRING) {
			token = next();
		}
	}

	// Past the next ';' at this level, or past a balanced block when one comes first.
	private void skipStatement() {
		while (true) {
			String word = word();
			if (word.equals(";")) {
				return;
			}
			if (word.equals("{")) {
				skipUntil("}");
				accept(";");
				return;
			}
			if (word.equals("[")) {
				skipUntil("]");
			}
		}
	}

	private void skipBlock() {
		expect("{");
		skipUntil("}");
	}

	// Past the closing token, nested brackets of every kind balanced.
	private void skipUntil(String close) {
		int depth = 0;
		while (true) {
			String word = word();
			if (word.equals("{") || word.equals("[") || word.equals("(") || word.equals("<")) {
				if (++depth > MAX_DEPTH * 4) {
					throw error("Nested deeper than " + MAX_DEPTH * 4);
				}
			}
			else if (word.equals("}") || word.equals("]") || word.equals(")") || word.equals(">")) {
				if (depth == 0) {
					if (!word.equals(close)) {
						throw error("Expected '" + close + "', found '" + word + "'");
					}
					return;
				}
				depth--;
			}
		}
	}

	private String identifier() {
		Token token = next();
		if (token.kind() != Kind.WORD || token.text().contains(".")) {
			throw error("Expected a name, found '" + token.text() + "'");
		}
		return token.text();
	}

	// A possibly dotted, possibly fully qualified name.
	private String name() {
		Token token = next();
		if (token.kind() != Kind.WORD) {
			throw error("Expected a name, found '" + token.text() + "'");
		}
		if (token.text().endsWith(".") || token.text().contains("..")) {
			throw error("Bad name '" + token.text() + "'");
		}
		return token.text();
	}

	private String string() {
		return new String(bytes(), StandardCharsets.UTF_8);
	}

	// Adjacent string literals concatenate.
	private byte[] bytes() {
		Token token = next();
		if (token.kind() != Kind.STRING) {
			throw error("Expected a string, found '" + token.text() + "'");
		}
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		bytes.writeBytes(token.bytes());
		while (!atEnd() && peekToken().kind() == Kind.STRING) {
			bytes.writeBytes(next().bytes());
		}
		return bytes.toByteArray();
	}

	private boolean accept(String text) {
		if (!atEnd() && peekToken().kind() != Kind.STRING && peek().equals(text)) {
			this.position++;
			return true;
		}
		return false;
	}

	private void expect(String text) {
		if (!accept(text)) {
			throw error("Expected '" + text + "', found " + (atEnd() ? "the end" : "'" + peek() + "'"));
		}
	}

	private String word() {
		return next().text();
	}

	private Token next() {
		if (atEnd()) {
			throw error("Unexpected end of schema");
		}
		return this.tokens.get(this.position++);
	}

	private String peek() {
		return peekAt(0);
	}

	private String peekAt(int ahead) {
		int index = this.position + ahead;
		return (index < this.tokens.size()) ? this.tokens.get(index).text() : "";
	}

	private Token peekToken() {
		return this.tokens.get(this.position);
	}

	private boolean atEnd() {
		return this.position >= this.tokens.size();
	}

	private IllegalArgumentException error(String message) {
		int index = Math.min(this.position, this.tokens.size()) - 1;
		int line = (index >= 0) ? this.tokens.get(index).line() : 1;
		return new IllegalArgumentException(message + " (line " + line + ")");
	}

	/**
	 * Join a field name's words as protoc does: underscores dropped, the letter after each
	 * upper-cased ({@code order_id} is a JSON name {@code orderId}, a map entry
	 * {@code OrderIdEntry}).
	 * @param name the field name
	 * @param upperFirst whether the first letter is upper-cased too
	 * @return the joined name
	 */
	static String camel(String name, boolean upperFirst) {
		StringBuilder camel = new StringBuilder();
		boolean upper = upperFirst;
		for (char c : name.toCharArray()) {
			if (c == '_') {
				upper = true;
			}
			else {
				camel.append(upper ? Character.toUpperCase(c) : c);
				upper = false;
			}
		}
		return camel.toString();
	}

}
