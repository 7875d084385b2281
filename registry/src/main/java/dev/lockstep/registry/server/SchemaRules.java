package dev.lockstep.registry.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.internal.ClassLoaders;
import dev.lockstep.registry.internal.StrictJson;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;


/**
 * What the embedded registry knows of each schema type: whether a text is a valid schema
 * (with the texts of its references), when two are the same schema, and whether one reads
 * data of another. Avro uses Avro's own compatibility check. Protobuf (when protobuf-java
 * is on the class path) compares fields by number: a field both have must keep a
 * wire-compatible type and its repeatedness, and a proto2 {@code required} field must be
 * in the writer too. JSON Schema checks the rules that lose data most often: a reader must
 * not require a property the writer does not require, change a property's {@code type},
 * or close ({@code additionalProperties: false}) over a property the writer has.
 */
final class SchemaRules {

	private static final int MAX_JSON_DEPTH = 32;

	private static final boolean PROTOBUF = isPresent("com.google.protobuf.Message");

	private SchemaRules() {
	}

	/**
	 * Check that a text is a schema of its type.
	 * @param schema the schema
	 * @param references the texts of its references, by reference name, outermost last
	 * @throws IllegalArgumentException when it is not
	 */
	static void check(RegistrySchema schema, Map<String, String> references) {
		parsed(schema, references);
	}

	/**
	 * Return whether two schemas of a subject, with the same references and different
	 * texts, are the same schema: parsed equal for Avro and JSON; for Protobuf, one written
	 * as {@code .proto} text and one as a base64 serialized descriptor (as Confluent's
	 * clients register it) are the same when Lockstep prints both alike. That print leaves
	 * out options and reserved ranges, so it compares only across the two encodings: two
	 * texts, or two descriptors, are the same only when equal.
	 */
	static boolean same(RegistrySchema a, RegistrySchema b, Map<String, String> references) {
		if (!a.type().equals(b.type())) {
			return false;
		}
		if (a.type().equals(RegistrySchema.PROTOBUF)) {
			try {
				return PROTOBUF && ProtobufRules.isSerialized(a.text()) != ProtobufRules.isSerialized(b.text())
						&& ProtobufRules.canonical(a.text(), references)
							.equals(ProtobufRules.canonical(b.text(), references));
			}
			catch (IllegalArgumentException | StackOverflowError ex) {
				return a.text().equals(b.text());
			}
		}
		try {
			return parsed(a, Map.of()).equals(parsed(b, Map.of()));
		}
		catch (IllegalArgumentException ex) {
			return a.text().equals(b.text());
		}
	}

	/**
	 * Return a schema's text as Confluent's {@code format=serialized} asks for it: a
	 * Protobuf schema's base64 serialized file descriptor; any other schema's text as it is.
	 */
	static String serialized(RegistrySchema schema, Map<String, String> references) {
		if (!schema.type().equals(RegistrySchema.PROTOBUF) || !PROTOBUF) {
			return schema.text();
		}
		try {
			return ProtobufRules.serialized(schema.text(), references);
		}
		catch (IllegalArgumentException | StackOverflowError ex) {
			// Kept unvalidated (a test's registry): answered as stored.
			return schema.text();
		}
	}

	/**
	 * Return why a reader schema cannot read data of a writer schema.
	 * @return the problems, empty when it can
	 */
	static List<String> problems(RegistrySchema reader, Map<String, String> readerReferences, RegistrySchema writer,
			Map<String, String> writerReferences) {
		if (!reader.type().equals(writer.type())) {
			return List.of("a " + reader.type() + " schema cannot follow a " + writer.type() + " schema");
		}
		Object readerParsed = parsed(reader, readerReferences);
		Object writerParsed = parsed(writer, writerReferences);
		return switch (reader.type()) {
			case RegistrySchema.AVRO -> avroProblems((Schema) readerParsed, (Schema) writerParsed);
			case RegistrySchema.JSON -> jsonProblems((JsonNode) readerParsed, (JsonNode) writerParsed, "#", 0);
			default -> PROTOBUF ? ProtobufRules.problems(readerParsed, writerParsed) : List.of();
		};
	}

	private static Object parsed(RegistrySchema schema, Map<String, String> references) {
		try {
			return switch (schema.type()) {
				case RegistrySchema.AVRO -> {
					Schema.Parser parser = new Schema.Parser();
					references.values().forEach(parser::parse);
					yield parser.parse(schema.text());
				}
				case RegistrySchema.JSON -> {
					JsonNode tree = StrictJson.read(schema.text());
					if (tree == null || !(tree.isObject() || tree.isBoolean())) {
						throw new IllegalArgumentException("A JSON schema is an object or a boolean");
					}
					yield tree;
				}
				default -> PROTOBUF ? ProtobufRules.parse(schema.text(), references) : schema.text();
			};
		}
		catch (IllegalArgumentException ex) {
			throw ex;
		}
		catch (IOException | RuntimeException | StackOverflowError ex) {
			// Untrusted text: whatever a parser throws on it (Avro's include NullPointerException).
			throw new IllegalArgumentException("Invalid " + schema.type() + " schema: " + ex.getMessage(), ex);
		}
	}

	private static List<String> avroProblems(Schema reader, Schema writer) {
		SchemaCompatibility.SchemaPairCompatibility result = SchemaCompatibility.checkReaderWriterCompatibility(reader,
				writer);
		List<String> problems = new ArrayList<>();
		result.getResult().getIncompatibilities().forEach((incompatibility) -> problems.add(
				incompatibility.getType() + " at " + incompatibility.getLocation() + ": " + incompatibility.getMessage()));
		return problems;
	}

	private static List<String> jsonProblems(JsonNode reader, JsonNode writer, String at, int depth) {
		List<String> problems = new ArrayList<>();
		if (depth > MAX_JSON_DEPTH || !reader.isObject() || !writer.isObject()) {
			return problems;
		}
		JsonNode readerType = reader.get("type");
		JsonNode writerType = writer.get("type");
		if (readerType != null && writerType != null && !readerType.equals(writerType)) {
			problems.add(at + ": type " + writerType + " became " + readerType);
		}
		JsonNode readerRequired = reader.path("required");
		JsonNode writerRequired = writer.path("required");
		for (JsonNode name : readerRequired) {
			if (!contains(writerRequired, name)) {
				problems.add(at + ": requires " + name + ", which the earlier schema does not");
			}
		}
		JsonNode readerProperties = reader.path("properties");
		JsonNode writerProperties = writer.path("properties");
		boolean closed = reader.path("additionalProperties").isBoolean()
				&& !reader.path("additionalProperties").booleanValue();
		for (Iterator<Map.Entry<String, JsonNode>> fields = writerProperties.fields(); fields.hasNext();) {
			Map.Entry<String, JsonNode> field = fields.next();
			JsonNode readerProperty = readerProperties.get(field.getKey());
			if (readerProperty == null) {
				if (closed) {
					problems.add(at + ": refuses property \"" + field.getKey() + "\", which the earlier schema allows");
				}
			}
			else {
				problems.addAll(jsonProblems(readerProperty, field.getValue(), at + "/properties/" + field.getKey(),
						depth + 1));
			}
		}
		return problems;
	}

	private static boolean contains(JsonNode array, JsonNode value) {
		for (JsonNode element : array) {
			if (element.equals(value)) {
				return true;
			}
		}
		return false;
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, ClassLoaders.contextOrLockstep());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

}
