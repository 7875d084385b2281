package dev.lockstep.registry;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockstep.registry.internal.DataContracts;
import dev.lockstep.registry.internal.SchemaJson;
import org.apache.avro.Schema;

/**
 * The registry REST API's JSON, as {@link RegistryClient} writes and reads it: request
 * bodies, and every field of a successful response checked (a missing or mistyped field is
 * a {@link RegistryException}, never a default; a schema Lockstep cannot use an
 * {@link UnsupportedSchemaException}).
 */
final class RegistryMessages {

	private static final ObjectMapper JSON = new ObjectMapper();

	private RegistryMessages() {
	}

	static ObjectNode schemaBody(RegistrySchema schema) {
		return SchemaJson.write(schema, JSON.createObjectNode());
	}


	/**
	 * Read a response's schema: its type (AVRO when absent), its text within the size
	 * limit, its references (at most {@link RegistryClient#MAX_REFERENCES}), its metadata
	 * and rule set.
	 */
	static RegistrySchema schemaText(JsonNode response) {
		String text = textField(response, "schema");
		JsonNode type = response.get("schemaType");
		if (type != null && !type.isTextual()) {
			throw invalid("schemaType", response);
		}
		List<SchemaReference> references = references(response);
		if (text.length() > RegistryClient.MAX_SCHEMA_BYTES || text.getBytes(StandardCharsets.UTF_8).length > RegistryClient.MAX_SCHEMA_BYTES) {
			throw new UnsupportedSchemaException("Registry returned a schema over " + RegistryClient.MAX_SCHEMA_BYTES + " bytes", null);
		}
		String metadata;
		String ruleSet;
		try {
			metadata = DataContracts.metadata(response.get("metadata"));
			ruleSet = DataContracts.ruleSet(response.get("ruleSet"));
		}
		catch (IllegalArgumentException ex) {
			throw new UnsupportedSchemaException("Registry returned a schema with an invalid data contract: "
					+ ex.getMessage(), ex);
		}
		try {
			return new RegistrySchema((type != null) ? type.textValue() : RegistrySchema.AVRO, text, references,
					metadata, ruleSet);
		}
		catch (IllegalArgumentException ex) {
			throw new UnsupportedSchemaException("Registry returned a schema of unknown type " + type, ex);
		}
	}

	private static List<SchemaReference> references(JsonNode response) {
		JsonNode references = response.get("references");
		if (references != null && references.size() > RegistryClient.MAX_REFERENCES) {
			throw new UnsupportedSchemaException("Registry returned a schema of more than "
					+ RegistryClient.MAX_REFERENCES + " references", null);
		}
		try {
			return SchemaJson.references(references);
		}
		catch (IllegalArgumentException ex) {
			throw invalid("references", response);
		}
	}


	/**
	 * Read the GUID a schema response names (Confluent Platform 8), if any.
	 */
	static Optional<UUID> guid(JsonNode response) {
		JsonNode field = response.get("guid");
		if (field == null || field.isNull()) {
			return Optional.empty();
		}
		try {
			return Optional.of(UUID.fromString(textField(response, "guid")));
		}
		catch (IllegalArgumentException ex) {
			throw invalid("guid", response);
		}
	}

	static String checkType(Object id, RegistrySchema schema, String expected) {
		if (!schema.type().equals(expected)) {
			throw new UnsupportedSchemaException("Schema id " + id + " is a " + schema.type() + " schema, not " + expected,
					null);
		}
		return schema.text();
	}

	static int versionNumber(JsonNode response) {
		JsonNode number = response.get("version");
		if (number == null || !number.isIntegralNumber() || !number.canConvertToInt() || number.intValue() < 1) {
			throw invalid("version", response);
		}
		return number.intValue();
	}

	static long schemaId(JsonNode response) {
		JsonNode id = (response.isObject()) ? response.get("id") : null;
		if (id == null || !id.isIntegralNumber() || !id.canConvertToLong() || id.longValue() < 0
				|| id.longValue() > WireFormat.MAX_SCHEMA_ID) {
			throw invalid("id", response);
		}
		return id.longValue();
	}

	static String textField(JsonNode response, String field) {
		JsonNode value = (response.isObject()) ? response.get(field) : null;
		if (value == null || !value.isTextual()) {
			throw invalid(field, response);
		}
		return value.textValue();
	}

	static Schema parseSchema(String text, Collection<String> referenced) {
		try {
			// Referenced named types first, into the same parser, as the registry resolves them.
			Schema.Parser parser = new Schema.Parser().setValidateDefaults(true);
			referenced.forEach(parser::parse);
			return parser.parse(text);
		}
		catch (RuntimeException ex) {
			// Avro's parser fails on untrusted text with more than SchemaParseException: an
			// unknown type name is a NullPointerException.
			throw new UnsupportedSchemaException("Registry returned an invalid Avro schema: " + ex.getMessage(), ex);
		}
	}

	static RegistryException invalid(String field, JsonNode response) {
		String shape = response.getNodeType().toString().toLowerCase(Locale.ROOT);
		return new RegistryException("Registry returned an invalid response: missing or wrong '" + field + "' in a "
				+ shape + " body", 200, 0, false, null);
	}

}
