package dev.lockstep.registry.kafka;

/**
 * The schemas of the JSON Schema serde tests.
 */
final class JsonSchemaSerdeSchemas {

	/** What {@code order.schema.json} holds. */
	static final String ORDER = """
			{"$schema": "http://json-schema.org/draft-07/schema#", "title": "Order", "type": "object",
			 "properties": {"id": {"type": "string", "minLength": 1}, "amount": {"type": "number", "minimum": 0}},
			 "required": ["id", "amount"], "additionalProperties": false}
			""";

	private JsonSchemaSerdeSchemas() {
	}

}
