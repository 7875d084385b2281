package dev.lockstep.registry.internal;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockstep.registry.DataContractException;
import dev.lockstep.registry.RegistrySchema;

/**
 * A schema's Confluent data-contract rules ({@code ruleSet}) as Lockstep's codecs meet
 * them. Lockstep runs no rule, so a rule that applies in a codec's direction refuses the
 * schema there, unless it is ignored by name or type. A domain or encoding rule applies by
 * its mode ({@code WRITE}, {@code READ}, {@code WRITEREAD}, the default), unless
 * {@code disabled}; migration rules run only when a client converts between two versions
 * of a subject, which Lockstep never does (it reads with the writer's schema and writes
 * with its own). Internal: not API.
 */
public final class DataContracts {

	private static final ObjectMapper JSON = new ObjectMapper();

	// The lists of a ruleSet whose rules run on every record, by mode.
	private static final List<String> RECORD_RULES = List.of("domainRules", "encodingRules");

	private static final List<String> ALL_RULES = List.of("migrationRules", "domainRules", "encodingRules");

	/** The way a codec moves data. */
	public enum Direction {

		/** A serializer writing with the schema. */
		WRITE,

		/** A deserializer reading what was written with the schema. */
		READ

	}

	private DataContracts() {
	}

	/**
	 * Refuse a schema with a rule that applies in a direction and is not ignored.
	 * @param schema the schema
	 * @param direction the codec's direction
	 * @param ignored rule names and rule types to go on without
	 * @throws DataContractException naming the first such rule, or when the rule set is
	 * malformed
	 */
	public static void check(RegistrySchema schema, Direction direction, Set<String> ignored) {
		if (schema.ruleSet() == null) {
			return;
		}
		JsonNode ruleSet = parse(schema.ruleSet());
		for (String list : RECORD_RULES) {
			for (JsonNode rule : ruleSet.path(list)) {
				String name = rule.path("name").asText("");
				String type = rule.path("type").asText("");
				String mode = rule.path("mode").asText("WRITEREAD");
				if (!rule.path("disabled").asBoolean(false) && appliesTo(mode, direction) && !ignored.contains(name)
						&& !ignored.contains(type)) {
					throw new DataContractException("The schema carries data-contract rule '" + name + "' (type "
							+ type + ", " + rule.path("kind").asText("TRANSFORM") + ", mode " + mode + ", in " + list
							+ "), which applies on " + direction.name().toLowerCase(Locale.ROOT)
							+ " and which Lockstep cannot run: Confluent's serializers run it, and going on without "
							+ "it would pass on data its owner asked to be checked, encrypted or transformed. If it "
							+ "may be skipped, name the rule or its type among the ignored rules "
							+ "(lockstep.registry.ignored-rules; Kafka serdes: lockstep.registry.ignored.rules)");
				}
			}
		}
	}

	/**
	 * Check a {@code ruleSet} value and return it as compact JSON.
	 * @param ruleSet the value; missing or {@code null} for none
	 * @return the compact JSON, or {@code null} for none
	 * @throws IllegalArgumentException when it is not an object of rule lists, each rule
	 * an object with a textual name and type
	 */
	public static String ruleSet(JsonNode ruleSet) {
		if (ruleSet == null || ruleSet.isNull() || ruleSet.isMissingNode()) {
			return null;
		}
		if (!ruleSet.isObject()) {
			throw new IllegalArgumentException("ruleSet is not an object");
		}
		for (String list : ALL_RULES) {
			JsonNode rules = ruleSet.get(list);
			if (rules == null || rules.isNull()) {
				continue;
			}
			if (!rules.isArray()) {
				throw new IllegalArgumentException("ruleSet." + list + " is not an array");
			}
			for (JsonNode rule : rules) {
				if (!rule.isObject() || !rule.path("name").isTextual() || !rule.path("type").isTextual()
						|| !optional(rule, "mode") || !optional(rule, "kind")
						|| !(rule.path("disabled").isMissingNode() || rule.path("disabled").isBoolean())) {
					throw new IllegalArgumentException("A rule of ruleSet." + list + " is not an object with a "
							+ "textual name and type (and a textual kind and mode, a boolean disabled, if any)");
				}
			}
		}
		return ruleSet.toString();
	}

	/**
	 * Check a {@code metadata} value and return it as compact JSON.
	 * @param metadata the value; missing or {@code null} for none
	 * @return the compact JSON, or {@code null} for none
	 * @throws IllegalArgumentException when it is not an object
	 */
	public static String metadata(JsonNode metadata) {
		if (metadata == null || metadata.isNull() || metadata.isMissingNode()) {
			return null;
		}
		if (!metadata.isObject()) {
			throw new IllegalArgumentException("metadata is not an object");
		}
		return metadata.toString();
	}

	/**
	 * Return a data contract's JSON text as a tree.
	 * @param json compact JSON written by {@link #ruleSet} or {@link #metadata}
	 * @return the tree
	 */
	public static JsonNode parse(String json) {
		try {
			return JSON.readTree(json);
		}
		catch (JsonProcessingException ex) {
			throw new DataContractException("The schema's data contract is not JSON: " + ex.getOriginalMessage());
		}
	}

	private static boolean appliesTo(String mode, Direction direction) {
		return switch (mode) {
			case "WRITEREAD" -> true;
			case "WRITE" -> direction == Direction.WRITE;
			case "READ" -> direction == Direction.READ;
			// Migration modes in a record rule list never run on a record.
			case "UPGRADE", "DOWNGRADE", "UPDOWN" -> false;
			// A mode this code does not know may be one that applies: refuse rather than guess.
			default -> true;
		};
	}

	private static boolean optional(JsonNode rule, String field) {
		return rule.path(field).isMissingNode() || rule.path(field).isTextual();
	}

}
