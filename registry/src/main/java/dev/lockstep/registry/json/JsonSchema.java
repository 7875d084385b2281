package dev.lockstep.registry.json;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.internal.StrictJson;

/**
 * A parsed and compiled JSON Schema, as the JSON Schema codecs use it: validates values
 * and knows its registry form. Draft 7 unless the schema's {@code $schema} names another
 * draft (4, 6, 7, 2019-09, 2020-12), as Confluent's JSON Schema serdes do. A {@code $ref}
 * resolves within the schema only: nothing is ever loaded, from the network or the class
 * path. Values with a number whose exponent is beyond 10,000 are refused. Immutable
 * and thread-safe.
 */
public final class JsonSchema {

	// Nothing is loaded for a $ref: not over the network, not from the class path.
	/** Where a schema with references is located, for its relative {@code $ref}s. */
	public static final String BASE = "https://schemas.lockstep.invalid/";

	private static final SchemaRegistry VALIDATORS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7,
			(builder) -> builder.schemaLoader((loader) -> loader.fetchRemoteResources(false).block((iri) -> true))
				.schemaCacheEnabled(false));

	private final JsonNode tree;

	private final String text;

	private final Schema validator;

	private JsonSchema(JsonNode tree, String text, Schema validator) {
		this.tree = tree;
		this.text = text;
		this.validator = validator;
	}

	/**
	 * Parse and compile a schema.
	 * @param text the schema, at most {@link RegistryClient#MAX_SCHEMA_BYTES} of UTF-8
	 * @return the schema
	 * @throws IllegalArgumentException when the text is not a valid JSON Schema
	 */
	public static JsonSchema parse(String text) {
		return parse(text, Map.of());
	}

	/**
	 * Parse and compile a schema whose {@code $ref}s name other schemas, as a registry's
	 * schema references give them. A reference's name is resolved as a {@code $ref} in the
	 * schema is: a relative name against the schema's own location, its absolute
	 * {@code $id} or else {@value #BASE}{@code schema.json}. Nothing else is ever loaded.
	 * @param text the schema, at most {@link RegistryClient#MAX_SCHEMA_BYTES} of UTF-8
	 * @param references the referenced schemas' texts by reference name
	 * @return the schema
	 * @throws IllegalArgumentException when the text is not a valid JSON Schema
	 */
	public static JsonSchema parse(String text, Map<String, String> references) {
		if (text.length() > RegistryClient.MAX_SCHEMA_BYTES
				|| text.getBytes(StandardCharsets.UTF_8).length > RegistryClient.MAX_SCHEMA_BYTES) {
			throw new IllegalArgumentException("JSON schema over " + RegistryClient.MAX_SCHEMA_BYTES + " bytes");
		}
		JsonNode tree;
		try {
			tree = StrictJson.read(text);
		}
		catch (IOException ex) {
			throw new IllegalArgumentException("Not a JSON schema: " + ex.getMessage(), ex);
		}
		if (tree == null || !(tree.isObject() || tree.isBoolean())) {
			throw new IllegalArgumentException("A JSON schema is an object or a boolean, not " + text);
		}
		try {
			Schema validator;
			if (references.isEmpty()) {
				validator = VALIDATORS.getSchema(tree);
			}
			else {
				String location = location(tree);
				validator = withReferences(location, references).getSchema(SchemaLocation.of(location), tree);
			}
			validator.initializeValidators();
			return new JsonSchema(tree, text, validator);
		}
		catch (RuntimeException | StackOverflowError ex) {
			// The schema is untrusted text: whatever the validator's compiler throws on it.
			throw new IllegalArgumentException("Invalid JSON schema: " + ex.getMessage(), ex);
		}
	}

	// The schema's own absolute $id, else a fixed location: what its relative $refs resolve against.
	private static String location(JsonNode tree) {
		JsonNode id = tree.path("$id");
		if (id.isTextual()) {
			try {
				if (new URI(id.textValue()).isAbsolute()) {
					return id.textValue();
				}
			}
			catch (URISyntaxException ex) {
				// Not an IRI: the fixed location.
			}
		}
		return BASE + "schema.json";
	}

	// The referenced schemas by the IRI a $ref resolves to, and nothing else loadable.
	private static SchemaRegistry withReferences(String location, Map<String, String> references) {
		Map<String, String> byIri = new HashMap<>();
		// A document's IRI, without the fragment resolving leaves on it.
		references.forEach((name, text) -> byIri.put(
				SchemaLocation.resolve(SchemaLocation.of(location), name).replaceFirst("#.*$", ""), text));
		return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7, (builder) -> builder.schemas(byIri)
			.schemaLoader((loader) -> loader.fetchRemoteResources(false)
				.block((iri) -> !byIri.containsKey(iri.toString())))
			.schemaCacheEnabled(false));
	}

	/**
	 * Load and parse a schema from the class path or a file.
	 * @param location {@code classpath:<resource>} or a file path
	 * @param classLoader where {@code classpath:} resources are
	 * @return the schema
	 * @throws IllegalArgumentException when there is no such resource or file, or it is not
	 * a valid JSON Schema of at most {@link RegistryClient#MAX_SCHEMA_BYTES}
	 */
	public static JsonSchema load(String location, ClassLoader classLoader) {
		boolean resource = location.startsWith("classpath:");
		String name = resource ? location.substring("classpath:".length()).replaceFirst("^/", "") : location;
		try (InputStream in = resource ? classLoader.getResourceAsStream(name) : Files.newInputStream(Path.of(name))) {
			if (in == null) {
				throw new IllegalArgumentException("No such resource " + location);
			}
			byte[] text = in.readNBytes(RegistryClient.MAX_SCHEMA_BYTES + 1);
			return parse(new String(text, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new IllegalArgumentException("Could not read " + location + ": " + ex.getMessage(), ex);
		}
	}

	static JsonNode read(byte[] json) {
		try {
			return StrictJson.read(json, 0, json.length);
		}
		catch (IOException ex) {
			throw new InvalidDataException("The value's mapper wrote invalid JSON: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Validate a value.
	 * @param value the value as a JSON tree
	 * @return what is wrong with it, empty when it is valid
	 */
	public List<String> validate(JsonNode value) {
		try {
			return this.validator.validate(value).stream().map(Error::toString).toList();
		}
		catch (RuntimeException | StackOverflowError ex) {
			// A value that cannot be evaluated (a reference that does not resolve, nesting
			// deeper than the stack) is as invalid as one that fails.
			return List.of("cannot be validated: " + ex);
		}
	}

	/**
	 * Refuse a value the schema does not accept.
	 * @param value the value as a JSON tree
	 * @param what what the value is, to begin the message with
	 * @throws InvalidDataException naming the first few of what is wrong
	 */
	public void requireValid(JsonNode value, String what) {
		List<String> errors = validate(value);
		if (!errors.isEmpty()) {
			// The first few say enough; a large document could have thousands.
			throw new InvalidDataException(what + ": " + String.join("; ", errors.subList(0, Math.min(3, errors.size())))
					+ ((errors.size() > 3) ? " (and " + (errors.size() - 3) + " more)" : ""));
		}
	}

	/**
	 * Return the schema's {@code title}, its record name for subject name strategies.
	 * @return the title, or {@code null}
	 */
	public String title() {
		JsonNode title = this.tree.get("title");
		return (title != null && title.isTextual()) ? title.textValue() : null;
	}

	/**
	 * Return the schema as the registry holds it: type {@code JSON} and the text it was
	 * parsed from.
	 * @return the registry form
	 */
	public RegistrySchema registrySchema() {
		return RegistrySchema.json(this.text);
	}

	/**
	 * Return the schema's JSON tree.
	 * @return the tree
	 */
	public JsonNode tree() {
		return this.tree.deepCopy();
	}

	/**
	 * Two schemas are equal when their JSON trees are (key order and white space aside).
	 */
	@Override
	public boolean equals(Object other) {
		return (other instanceof JsonSchema schema) && this.tree.equals(schema.tree);
	}

	@Override
	public int hashCode() {
		return this.tree.hashCode();
	}

	@Override
	public String toString() {
		return this.text;
	}

}
