package dev.lockstep.registry.internal;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.SchemaReference;

/**
 * A schema as the registry API writes it ({@code schema}, {@code schemaType},
 * {@code references}, {@code metadata}, {@code ruleSet}), for the client's requests and the embedded registry's answers and
 * data file alike. Internal: not API.
 */
public final class SchemaJson {

	private SchemaJson() {
	}

	/**
	 * Write a schema's fields into an object: its text, its type unless AVRO (older
	 * registries know no other and the registry leaves it out), its references, metadata
	 * and rule set if any.
	 * @param schema the schema
	 * @param into the object
	 * @return {@code into}
	 */
	public static ObjectNode write(RegistrySchema schema, ObjectNode into) {
		into.put("schema", schema.text());
		if (!schema.type().equals(RegistrySchema.AVRO)) {
			into.put("schemaType", schema.type());
		}
		if (!schema.references().isEmpty()) {
			ArrayNode references = into.putArray("references");
			schema.references().forEach((reference) -> references.addObject().put("name", reference.name())
				.put("subject", reference.subject()).put("version", reference.version()));
		}
		if (schema.metadata() != null) {
			into.set("metadata", DataContracts.parse(schema.metadata()));
		}
		if (schema.ruleSet() != null) {
			into.set("ruleSet", DataContracts.parse(schema.ruleSet()));
		}
		return into;
	}

	/**
	 * Read a {@code references} array.
	 * @param references the array; missing or {@code null} for none
	 * @return the references
	 * @throws IllegalArgumentException when it is no array of {@code name}, {@code subject}
	 * and {@code version} (from 1) objects
	 */
	public static List<SchemaReference> references(JsonNode references) {
		if (references == null || references.isNull() || references.isMissingNode()) {
			return List.of();
		}
		if (!references.isArray()) {
			throw new IllegalArgumentException("references is not an array");
		}
		List<SchemaReference> list = new ArrayList<>();
		for (JsonNode reference : references) {
			JsonNode name = reference.get("name");
			JsonNode subject = reference.get("subject");
			JsonNode version = reference.get("version");
			if (name == null || !name.isTextual() || subject == null || !subject.isTextual() || version == null
					|| !version.isIntegralNumber() || !version.canConvertToInt()) {
				throw new IllegalArgumentException("A reference has a name, a subject and a version");
			}
			list.add(new SchemaReference(name.textValue(), subject.textValue(), version.intValue()));
		}
		return List.copyOf(list);
	}

}
