package dev.lockstep.registry.server;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.internal.DataContracts;
import dev.lockstep.registry.internal.SchemaJson;
import dev.lockstep.registry.server.SchemaStore.Refusal;
import dev.lockstep.registry.server.SchemaStore.Version;

/**
 * The Confluent registry's REST API over a {@link SchemaStore}: one request to the store
 * operation it asks for and that operation's JSON answer, under the store's monitor (which
 * the registry's own operations and its close take too). The endpoints:
 * {@code GET/PUT /config[/{subject}]}, {@code GET /schemas/ids/{id}},
 * {@code GET /schemas/guids/{guid}}, {@code GET /subjects},
 * {@code GET /subjects/{subject}/versions[/{version}]}, {@code POST /subjects/{subject}}
 * (look-up) and {@code POST /subjects/{subject}/versions} (registration). What the store
 * refuses, and a request that cannot be read (a body too large or not a JSON object, an
 * unknown level, id or GUID), comes out as a {@link Refusal} with the registry's status
 * and error code.
 */
final class RegistryRestApi {

	private final SchemaStore store;

	private final ObjectMapper json;

	RegistryRestApi(SchemaStore store, ObjectMapper json) {
		this.store = store;
		this.json = json;
	}

	/**
	 * Answer one request.
	 * @param method the HTTP method
	 * @param parts the path below the registry's prefix, split at '/' (the first part
	 * empty)
	 * @param exchange the request, for its body and query
	 * @return the answer's body, or {@code null} when no endpoint has this path
	 * @throws IOException when the body cannot be read
	 */
	JsonNode route(String method, String[] parts, HttpExchange exchange) throws IOException {
		int n = parts.length;
		String first = (n > 1) ? parts[1] : "";
		// The body is read before the store's lock is taken: a slow client must not stall the others.
		JsonNode body = (method.equals("POST") || method.equals("PUT")) ? readBody(exchange) : null;
		synchronized (this.store) {
			if (first.equals("config") && (n == 2 || n == 3)) {
				String subject = (n == 3) ? decode(parts[2]) : null;
				if (method.equals("GET")) {
					Compatibility level = (subject != null)
							? this.store.subjectCompatibility(subject, defaultToGlobal(exchange))
							: this.store.compatibility(null);
					return this.json.createObjectNode().put("compatibilityLevel", level.name());
				}
				if (method.equals("PUT")) {
					Compatibility level = level(body);
					this.store.compatibility(subject, level);
					return this.json.createObjectNode().put("compatibility", level.name());
				}
			}
			else if (method.equals("GET") && n == 4 && first.equals("schemas") && parts[2].equals("ids")) {
				return schemaBody(this.json.createObjectNode(), id(parts[3]), format(exchange));
			}
			else if (method.equals("GET") && n == 4 && first.equals("schemas") && parts[2].equals("guids")) {
				return schemaBody(this.json.createObjectNode(), this.store.id(guid(parts[3])), format(exchange));
			}
			else if (method.equals("GET") && n == 2 && first.equals("subjects")) {
				ArrayNode subjects = this.json.createArrayNode();
				this.store.subjects().forEach(subjects::add);
				return subjects;
			}
			else if (first.equals("subjects") && n >= 3) {
				String subject = decode(parts[2]);
				if (method.equals("POST") && n == 3) {
					return versionBody(subject, this.store.lookup(subject, schema(body)), null);
				}
				if (method.equals("POST") && n == 4 && parts[3].equals("versions")) {
					long id = this.store.register(subject, schema(body));
					return this.json.createObjectNode()
						.put("id", id)
						.put("guid", SchemaStore.guid(this.store.schema(id)).toString());
				}
				if (method.equals("GET") && n == 4 && parts[3].equals("versions")) {
					ArrayNode versions = this.json.createArrayNode();
					this.store.versions(subject).forEach((version) -> versions.add(version.version()));
					return versions;
				}
				if (method.equals("GET") && n == 5 && parts[3].equals("versions")) {
					return versionBody(subject, this.store.version(subject, parts[4]), format(exchange));
				}
			}
			return null;
		}
	}

	private static boolean defaultToGlobal(HttpExchange exchange) {
		String query = exchange.getRequestURI().getQuery();
		return query != null && query.contains("defaultToGlobal=true");
	}

	private ObjectNode versionBody(String subject, Version version, String format) {
		return schemaBody(this.json.createObjectNode()
			.put("subject", subject)
			.put("version", version.version())
			.put("id", version.id()), version.id(), format);
	}

	// The schema as the request's format asks for it; its GUID is the stored schema's.
	private ObjectNode schemaBody(ObjectNode body, long id, String format) {
		return SchemaJson.write(this.store.schema(id, format), body)
			.put("guid", SchemaStore.guid(this.store.schema(id)).toString());
	}

	private static String format(HttpExchange exchange) {
		String query = exchange.getRequestURI().getQuery();
		if (query != null) {
			for (String parameter : query.split("&")) {
				if (parameter.startsWith("format=")) {
					return parameter.substring("format=".length());
				}
			}
		}
		return null;
	}

	private static RegistrySchema schema(JsonNode body) {
		JsonNode schema = body.get("schema");
		JsonNode type = body.get("schemaType");
		if (schema == null || !schema.isTextual() || (type != null && !type.isTextual())) {
			throw new Refusal(422, 42201, "Either the input schema or one of its references is invalid");
		}
		try {
			return new RegistrySchema((type != null) ? type.textValue() : RegistrySchema.AVRO, schema.textValue(),
					SchemaJson.references(body.get("references")), DataContracts.metadata(body.get("metadata")),
					DataContracts.ruleSet(body.get("ruleSet")));
		}
		catch (IllegalArgumentException ex) {
			throw new Refusal(422, 42201, "Either the input schema or one of its references is invalid: "
					+ ex.getMessage());
		}
	}

	private JsonNode readBody(HttpExchange exchange) throws IOException {
		try (InputStream in = exchange.getRequestBody()) {
			byte[] bytes = in.readNBytes(RegistryClient.MAX_SCHEMA_BYTES * 2 + 1);
			if (bytes.length > RegistryClient.MAX_SCHEMA_BYTES * 2) {
				throw new Refusal(413, 413, "Request body too large");
			}
			JsonNode body = this.json.readTree(bytes);
			if (body == null || !body.isObject()) {
				throw new Refusal(422, 42201, "Invalid request body");
			}
			return body;
		}
		catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
			throw new Refusal(422, 42201, "Invalid request body: " + ex.getOriginalMessage());
		}
	}

	private static Compatibility level(JsonNode body) {
		JsonNode level = body.get("compatibility");
		try {
			return Compatibility.valueOf(level.textValue().toUpperCase(Locale.ROOT));
		}
		catch (RuntimeException ex) {
			throw new Refusal(422, 42203, "Invalid compatibility level. Valid values are "
					+ List.of(Compatibility.values()));
		}
	}

	private static UUID guid(String text) {
		try {
			return UUID.fromString(text);
		}
		catch (IllegalArgumentException ex) {
			throw new Refusal(404, 40403, "Schema " + text + " not found");
		}
	}

	private static long id(String text) {
		try {
			return Long.parseLong(text);
		}
		catch (NumberFormatException ex) {
			throw new Refusal(404, 40403, "Schema " + text + " not found");
		}
	}

	// A path segment as sent: a '+' is itself, not a space.
	static String decode(String segment) {
		return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
	}

}
