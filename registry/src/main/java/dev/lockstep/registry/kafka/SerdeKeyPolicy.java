package dev.lockstep.registry.kafka;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import dev.lockstep.registry.internal.Names;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static dev.lockstep.registry.kafka.RegistrySerdeConfig.AUTO_REGISTER_SCHEMAS;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.BASIC_AUTH_CREDENTIALS_SOURCE;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.BASIC_AUTH_USER_INFO;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.BEARER_AUTH_CREDENTIALS_SOURCE;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.BEARER_AUTH_TOKEN;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.CACHE_CAPACITY;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.CA_FILE;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.DERIVE_TYPE;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.IGNORED_RULES;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.JSON_FAIL_INVALID_SCHEMA;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.JSON_FAIL_UNKNOWN_PROPERTIES;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.JSON_KEY_SCHEMA;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.JSON_KEY_TYPE;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.JSON_VALUE_SCHEMA;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.JSON_VALUE_TYPE;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.KEY_SCHEMA_ID_SERIALIZER;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.KEY_SUBJECT_NAME_STRATEGY;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.KEY_TYPE;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.MAX_MESSAGE_BYTES;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.MAX_RESPONSE_BYTES;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.NORMALIZE_SCHEMAS;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.RETRIES;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.SCHEMA_REGISTRY_URL;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.SPECIFIC_AVRO_READER;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.SPECIFIC_PROTOBUF_KEY_TYPE;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.SPECIFIC_PROTOBUF_VALUE_TYPE;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.SSL_ENDPOINT_IDENTIFICATION;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.SSL_KEYSTORE_LOCATION;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.SSL_KEYSTORE_PASSWORD;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.SSL_KEYSTORE_TYPE;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.SSL_KEY_PASSWORD;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.SSL_TRUSTSTORE_LOCATION;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.SSL_TRUSTSTORE_PASSWORD;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.SSL_TRUSTSTORE_TYPE;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.TIMEOUT_MS;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.USE_LATEST_VERSION;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.VALUE_SCHEMA_ID_SERIALIZER;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.VALUE_SUBJECT_NAME_STRATEGY;
import static dev.lockstep.registry.kafka.RegistrySerdeConfig.VALUE_TYPE;

/**
 * What {@link RegistrySerdeConfig} does with each key in the serdes' namespace (Confluent's
 * serde keys and Lockstep's own): a key Lockstep honours is read; a known key it cannot
 * honour is refused when ignoring it would change data, placement or security, and
 * otherwise logged once per process at WARN; an unknown key is refused naming the
 * nearest valid one. Keys outside the namespace are Kafka's and not looked at.
 */
final class SerdeKeyPolicy {

	// The serde configuration's category, where its users look for its warnings.
	private static final Logger logger = LoggerFactory.getLogger(RegistrySerdeConfig.class);

	private static final Set<String> warned = ConcurrentHashMap.newKeySet();

	private static final List<String> NAMESPACE_PREFIXES = List.of("schema.registry.", "basic.auth.", "bearer.auth.",
			"lockstep.registry.", "lockstep.avro.", "auto.register.", "use.latest.", "use.schema.", "specific.avro.",
			"key.subject.", "value.subject.", "avro.", "normalize.", "latest.", "id.compatibility.", "context.name.",
			"max.schemas.", "proxy.", "schema.reflection", "rule.", "key.schema.", "value.schema.", "json.",
			"lockstep.json.", "specific.protobuf.", "derive.type", "reference.", "skip.known.types");

	private static final Set<String> HONOURED = Set.of(SCHEMA_REGISTRY_URL, BASIC_AUTH_CREDENTIALS_SOURCE,
			BASIC_AUTH_USER_INFO, "schema.registry.basic.auth.user.info", BEARER_AUTH_CREDENTIALS_SOURCE,
			BEARER_AUTH_TOKEN, AUTO_REGISTER_SCHEMAS, NORMALIZE_SCHEMAS, USE_LATEST_VERSION, SPECIFIC_AVRO_READER,
			KEY_SUBJECT_NAME_STRATEGY, VALUE_SUBJECT_NAME_STRATEGY, SSL_TRUSTSTORE_LOCATION, SSL_TRUSTSTORE_PASSWORD,
			SSL_TRUSTSTORE_TYPE, SSL_KEYSTORE_LOCATION, SSL_KEYSTORE_PASSWORD, SSL_KEYSTORE_TYPE, SSL_KEY_PASSWORD,
			SSL_ENDPOINT_IDENTIFICATION, CA_FILE, TIMEOUT_MS, MAX_RESPONSE_BYTES, CACHE_CAPACITY,
			RETRIES, IGNORED_RULES, KEY_SCHEMA_ID_SERIALIZER, VALUE_SCHEMA_ID_SERIALIZER, MAX_MESSAGE_BYTES, KEY_TYPE,
			VALUE_TYPE, JSON_FAIL_INVALID_SCHEMA, JSON_FAIL_UNKNOWN_PROPERTIES,
			JSON_KEY_TYPE, JSON_VALUE_TYPE, JSON_KEY_SCHEMA, JSON_VALUE_SCHEMA, SPECIFIC_PROTOBUF_KEY_TYPE,
			SPECIFIC_PROTOBUF_VALUE_TYPE, DERIVE_TYPE);

	// Known keys that Lockstep does not honour, and why ignoring them is harmless.
	private static final Map<String, String> IGNORED_WITH_WARNING = Map.ofEntries(
			Map.entry("max.schemas.per.subject", "the registry caches are bounded by " + CACHE_CAPACITY),
			Map.entry("latest.compatibility.strict",
					"use.latest.version requires the latest version to be the record's own schema"),
			Map.entry("id.compatibility.strict", "ids are always checked against the reader schema"),
			Map.entry("latest.cache.ttl.sec", "the latest version is read once, when the serializer prepares a subject"),
			Map.entry("latest.cache.size", "the latest version is read once, when the serializer prepares a subject"),
			Map.entry("avro.reflection.allow.null", "reflection-based records are not supported"),
			Map.entry("schema.registry.ssl.protocol", "the JDK's default TLS protocols are used"),
			Map.entry("json.schema.spec.version",
					"Lockstep does not generate JSON schemas: a schema's draft is its $schema (draft 7 without)"),
			Map.entry("json.oneof.for.nullables", "Lockstep does not generate JSON schemas"),
			Map.entry("json.schema.scan.packages", "Lockstep does not generate JSON schemas"),
			Map.entry("skip.known.types", "Protobuf's well-known types are never registered as references"));

	// Known keys whose non-default values would change data, placement or security.
	private static final Map<String, String> REFUSED_UNLESS_DEFAULT = new LinkedHashMap<>();

	static {
		REFUSED_UNLESS_DEFAULT.put("avro.use.logical.type.converters", "false");
		REFUSED_UNLESS_DEFAULT.put("avro.remove.java.properties", "false");
		REFUSED_UNLESS_DEFAULT.put("schema.reflection", "false");
		REFUSED_UNLESS_DEFAULT.put("use.latest.with.metadata", "");
		REFUSED_UNLESS_DEFAULT.put("use.schema.id", "-1");
		REFUSED_UNLESS_DEFAULT.put("context.name.strategy", "");
		REFUSED_UNLESS_DEFAULT.put("key.schema.id", "");
		REFUSED_UNLESS_DEFAULT.put("value.schema.id", "");
		REFUSED_UNLESS_DEFAULT.put("proxy.host", "");
		REFUSED_UNLESS_DEFAULT.put("proxy.port", "-1");
		REFUSED_UNLESS_DEFAULT.put("rule.executors", "");
		REFUSED_UNLESS_DEFAULT.put("rule.actions", "");
		REFUSED_UNLESS_DEFAULT.put("bearer.auth.logical.cluster", "");
		REFUSED_UNLESS_DEFAULT.put("bearer.auth.identity.pool.id", "");
		REFUSED_UNLESS_DEFAULT.put("json.write.dates.iso8601", "false");
		REFUSED_UNLESS_DEFAULT.put("json.indent.output", "false");
		REFUSED_UNLESS_DEFAULT.put("json.default.property.inclusion", "");
		REFUSED_UNLESS_DEFAULT.put("reference.subject.name.strategy",
				"io.confluent.kafka.serializers.subject.DefaultReferenceSubjectNameStrategy");
		REFUSED_UNLESS_DEFAULT.put("reference.lookup.only", "false");
		// Readers always read as Confluent's dual deserializer does: a header, else the prefix.
		String ids = "io.confluent.kafka.serializers.schema.id.";
		REFUSED_UNLESS_DEFAULT.put("key.schema.id.deserializer", ids + "DualSchemaIdDeserializer");
		REFUSED_UNLESS_DEFAULT.put("value.schema.id.deserializer", ids + "DualSchemaIdDeserializer");

	}

	/**
	 * Check one key of a serde configuration.
	 * @param key the key
	 * @param value its value
	 * @throws ConfigException for an unknown key in the namespace, or a refused key set
	 * to anything but its default
	 */
	static void check(String key, Object value) {
		if (!inNamespace(key) || HONOURED.contains(key)) {
			return;
		}
		String reason = IGNORED_WITH_WARNING.get(key);
		if (reason != null) {
			if (warned.add(key)) {
				logger.warn("Ignoring schema registry key '{}': {}", key, reason);
			}
			return;
		}
		if (REFUSED_UNLESS_DEFAULT.containsKey(key)) {
			String text = (value != null) ? value.toString().trim() : "";
			if (text.isEmpty() || text.equalsIgnoreCase(REFUSED_UNLESS_DEFAULT.get(key))) {
				return;
			}
			throw new ConfigException(key, secretSafe(key, value),
					"Lockstep does not support this setting, and ignoring it would change data, placement or security");
		}
		throw new ConfigException("Unknown schema registry key '" + key + "'; did you mean '" + nearest(key) + "'?");
	}

	private static Object secretSafe(String key, Object value) {
		return (key.contains("password") || key.contains("token") || key.contains("user.info")) ? "[hidden]" : value;
	}

	/** Whether a key is in the serdes' namespace, where this policy, not Kafka, decides. */
	static boolean inNamespace(String key) {
		return NAMESPACE_PREFIXES.stream().anyMatch(key::startsWith);
	}

	private static String nearest(String key) {
		return Names.nearest(key, Stream
			.concat(HONOURED.stream(),
					Stream.concat(IGNORED_WITH_WARNING.keySet().stream(), REFUSED_UNLESS_DEFAULT.keySet().stream()))
			.toList());
	}

	private SerdeKeyPolicy() {
	}

}
