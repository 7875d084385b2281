package dev.lockstep.registry.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.SchemaIdFraming;
import dev.lockstep.registry.SchemaIdSource;
import dev.lockstep.registry.WireFormat;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The configuration of Lockstep's Kafka serdes, read from the map Kafka hands to
 * {@code configure}. It accepts Confluent's keys, so moving from
 * {@code KafkaAvroSerializer} (or {@code KafkaJsonSchemaSerializer}) is a class-name
 * change, plus Lockstep's own {@code lockstep.registry.*}, {@code lockstep.avro.*} and
 * {@code lockstep.json.*} keys.
 * <p>
 * Within that key namespace, an unknown key is refused with a {@link ConfigException}
 * naming the nearest valid key; a known key Lockstep cannot honour is refused when
 * ignoring it would change data, placement or security, and otherwise logged once per
 * process at WARN. Kafka's own client keys are not looked at.
 */
public final class RegistrySerdeConfig {

	/** Comma-separated registry base URLs. */
	public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";

	/** {@code USER_INFO} (the only source supported) for HTTP Basic. */
	public static final String BASIC_AUTH_CREDENTIALS_SOURCE = "basic.auth.credentials.source";

	/** {@code user:password} for HTTP Basic. */
	public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";

	/** {@code STATIC_TOKEN} (the only source supported) for a bearer token. */
	public static final String BEARER_AUTH_CREDENTIALS_SOURCE = "bearer.auth.credentials.source";

	/** The static bearer token. */
	public static final String BEARER_AUTH_TOKEN = "bearer.auth.token";

	/** Whether serializers register schemas; {@code false} by default in Lockstep. */
	public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";

	/** Whether the registry normalizes schemas on registration and look-up alike. */
	public static final String NORMALIZE_SCHEMAS = "normalize.schemas";

	/** Whether serializers write with the subject's latest version's id. */
	public static final String USE_LATEST_VERSION = "use.latest.version";

	/** Whether deserializers return generated classes instead of generic records. */
	public static final String SPECIFIC_AVRO_READER = "specific.avro.reader";

	/** The subject name strategy of keys. */
	public static final String KEY_SUBJECT_NAME_STRATEGY = "key.subject.name.strategy";

	/** The subject name strategy of values. */
	public static final String VALUE_SUBJECT_NAME_STRATEGY = "value.subject.name.strategy";

	/** Trust store file for registry HTTPS. */
	public static final String SSL_TRUSTSTORE_LOCATION = "schema.registry.ssl.truststore.location";

	/** Trust store password. */
	public static final String SSL_TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";

	/** Trust store type: JKS, PKCS12 or PEM. */
	public static final String SSL_TRUSTSTORE_TYPE = "schema.registry.ssl.truststore.type";

	/** Key store file of the client certificate for registry mutual TLS. */
	public static final String SSL_KEYSTORE_LOCATION = "schema.registry.ssl.keystore.location";

	/** Key store password. */
	public static final String SSL_KEYSTORE_PASSWORD = "schema.registry.ssl.keystore.password";

	/** Key store type: JKS or PKCS12. */
	public static final String SSL_KEYSTORE_TYPE = "schema.registry.ssl.keystore.type";

	/** Password of the key in the key store; the key store's password when unset. */
	public static final String SSL_KEY_PASSWORD = "schema.registry.ssl.key.password";

	/** Hostname verification: only {@code https} (on) is accepted. */
	public static final String SSL_ENDPOINT_IDENTIFICATION = "schema.registry.ssl.endpoint.identification.algorithm";

	/** Registry CA certificates as a PEM file (Lockstep's own key). */
	public static final String CA_FILE = "lockstep.registry.ca.file";

	/** Per-request timeout in milliseconds (Lockstep's own key). */
	public static final String TIMEOUT_MS = "lockstep.registry.timeout.ms";

	/** Largest registry response body (Lockstep's own key). */
	public static final String MAX_RESPONSE_BYTES = "lockstep.registry.max.response.bytes";

	/** Entries per registry cache and per prepared-reader cache (Lockstep's own key). */
	public static final String CACHE_CAPACITY = "lockstep.registry.cache.capacity";

	/** Retries of retryable registry failures (Lockstep's own key). */
	public static final String RETRIES = "lockstep.registry.retries";

	/**
	 * Data-contract rules, by name or type, that the codecs go on without instead of
	 * refusing their schema (Lockstep's own key; a list).
	 */
	public static final String IGNORED_RULES = "lockstep.registry.ignored.rules";

	/**
	 * Where a key serializer puts the schema id: Confluent's {@code PrefixSchemaIdSerializer}
	 * (the default) or {@code HeaderSchemaIdSerializer}, by full or simple class name.
	 */
	public static final String KEY_SCHEMA_ID_SERIALIZER = "key.schema.id.serializer";

	/** Where a value serializer puts the schema id, as {@link #KEY_SCHEMA_ID_SERIALIZER}. */
	public static final String VALUE_SCHEMA_ID_SERIALIZER = "value.schema.id.serializer";

	/** Largest Kafka message encoded or decoded, envelope included (Lockstep's own key). */
	public static final String MAX_MESSAGE_BYTES = "lockstep.avro.max.message.bytes";

	/** Whether JSON values are validated against their schema on write and read; {@code true} in Lockstep. */
	public static final String JSON_FAIL_INVALID_SCHEMA = "json.fail.invalid.schema";

	/** Whether a JSON property the value class does not know fails the read. */
	public static final String JSON_FAIL_UNKNOWN_PROPERTIES = "json.fail.unknown.properties";

	/** The class JSON keys are read into ({@code JsonNode} unless set). */
	public static final String JSON_KEY_TYPE = "json.key.type";

	/** The class JSON values are read into ({@code JsonNode} unless set). */
	public static final String JSON_VALUE_TYPE = "json.value.type";

	/** The JSON schema of keys written: {@code classpath:} or a file (Lockstep's own key). */
	public static final String JSON_KEY_SCHEMA = "lockstep.json.key.schema";

	/** The JSON schema of values written: {@code classpath:} or a file (Lockstep's own key). */
	public static final String JSON_VALUE_SCHEMA = "lockstep.json.value.schema";

	/** Generated record class of keys (Lockstep's own key). */
	public static final String KEY_TYPE = "lockstep.avro.key.type";

	/** Generated record class of values (Lockstep's own key). */
	public static final String VALUE_TYPE = "lockstep.avro.value.type";

	/** Confluent's key: the generated Protobuf class keys are read into. */
	public static final String SPECIFIC_PROTOBUF_KEY_TYPE = "specific.protobuf.key.type";

	/** Confluent's key: the generated Protobuf class values are read into. */
	public static final String SPECIFIC_PROTOBUF_VALUE_TYPE = "specific.protobuf.value.type";

	/** Whether a Protobuf deserializer reads each record into its writer message's generated class. */
	public static final String DERIVE_TYPE = "derive.type";

	private final Map<String, ?> configs;

	private final boolean isKey;

	private RegistrySerdeConfig(Map<String, ?> configs, boolean isKey) {
		this.configs = configs;
		this.isKey = isKey;
	}

	/**
	 * Check and read a serde configuration.
	 * @param configs the map Kafka passes to {@code configure}
	 * @param isKey whether the serde handles keys
	 * @return the configuration
	 * @throws ConfigException for an unknown or refused key or an invalid value
	 */
	public static RegistrySerdeConfig of(Map<String, ?> configs, boolean isKey) {
		for (Map.Entry<String, ?> entry : configs.entrySet()) {
			SerdeKeyPolicy.check(entry.getKey(), entry.getValue());
		}
		return new RegistrySerdeConfig(configs, isKey);
	}

	/**
	 * Build the registry client these settings describe.
	 * @return a new client
	 * @throws ConfigException when no URL is given or an option is invalid
	 */
	public RegistryClient createClient() {
		String urls = string(SCHEMA_REGISTRY_URL, null);
		if (urls == null || urls.isBlank()) {
			throw new ConfigException(SCHEMA_REGISTRY_URL, urls, "The schema registry URL is required");
		}
		RegistryClient.Builder builder = RegistryClient
			.builder(Arrays.stream(urls.split(",")).map(String::trim).filter((url) -> !url.isEmpty()).toList());
		configureAuth(builder);
		configureTrust(builder);
		builder.normalizeSchemas(bool(NORMALIZE_SCHEMAS, false));
		builder.ignoredRules(list(IGNORED_RULES));
		builder.timeout(Duration.ofMillis(number(TIMEOUT_MS, RegistryClient.Builder.DEFAULT_TIMEOUT.toMillis())))
			.maxResponseBytes((int) number(MAX_RESPONSE_BYTES, RegistryClient.Builder.DEFAULT_MAX_RESPONSE_BYTES))
			.cacheCapacity(cacheCapacity())
			.retries((int) number(RETRIES, RegistryClient.Builder.DEFAULT_RETRIES));
		try {
			return builder.build();
		}
		catch (IllegalArgumentException ex) {
			throw new ConfigException(ex.getMessage());
		}
	}

	/**
	 * Return whether the serde handles keys.
	 * @return whether it is a key serde
	 */
	public boolean isKey() {
		return this.isKey;
	}

	/**
	 * Return whether serializers register schemas (Lockstep's default: {@code false}).
	 * @return whether to auto-register
	 */
	public boolean autoRegister() {
		return bool(AUTO_REGISTER_SCHEMAS, false);
	}

	/**
	 * Return whether serializers use the subject's latest version.
	 * @return whether to use the latest version
	 */
	public boolean useLatestVersion() {
		return bool(USE_LATEST_VERSION, false);
	}

	/**
	 * Return how serializers find the schema id they write: the latest version's
	 * ({@code use.latest.version}), registering ({@code auto.register.schemas}), or a look-up.
	 * @return the source of ids
	 */
	public SchemaIdSource schemaIdSource() {
		return useLatestVersion() ? SchemaIdSource.LATEST_VERSION
				: autoRegister() ? SchemaIdSource.AUTO_REGISTER : SchemaIdSource.LOOKUP;
	}

	/**
	 * Return where this side's serializer puts the schema id.
	 * @return the prefix (the default) or a header
	 * @throws ConfigException when the key names another class
	 */
	public SchemaIdFraming schemaIdFraming() {
		String key = this.isKey ? KEY_SCHEMA_ID_SERIALIZER : VALUE_SCHEMA_ID_SERIALIZER;
		Object value = this.configs.get(key);
		String name = (value instanceof Class<?> type) ? type.getName() : (value != null) ? value.toString().trim() : "";
		String simple = name.substring(name.lastIndexOf('.') + 1);
		if (name.isEmpty() || (simple.equals("PrefixSchemaIdSerializer") && isConfluentIdClass(name))) {
			return SchemaIdFraming.PREFIX;
		}
		if (simple.equals("HeaderSchemaIdSerializer") && isConfluentIdClass(name)) {
			return SchemaIdFraming.HEADER;
		}
		throw new ConfigException(key, value, "Expected io.confluent.kafka.serializers.schema.id."
				+ "PrefixSchemaIdSerializer or HeaderSchemaIdSerializer");
	}

	private static boolean isConfluentIdClass(String name) {
		return name.indexOf('.') < 0 || name.startsWith("io.confluent.kafka.serializers.schema.id.");
	}

	/**
	 * Return whether deserializers return generated classes.
	 * @return whether to read specific records
	 */
	public boolean specificReader() {
		boolean specific = bool(SPECIFIC_AVRO_READER, false);
		if (this.configs.containsKey(SPECIFIC_AVRO_READER) && !specific && recordType() != null) {
			throw new ConfigException(SPECIFIC_AVRO_READER + "=false contradicts "
					+ (this.isKey ? KEY_TYPE : VALUE_TYPE) + ", which names a generated reader class");
		}
		return specific || recordType() != null;
	}

	/**
	 * Return the subject name strategy for this serde's side.
	 * @return the strategy
	 */
	public SubjectNameStrategy subjectNameStrategy() {
		String key = this.isKey ? KEY_SUBJECT_NAME_STRATEGY : VALUE_SUBJECT_NAME_STRATEGY;
		String value = string(key, null);
		return (value != null) ? SubjectNameStrategy.parse(key, value) : SubjectNameStrategy.TOPIC_NAME;
	}

	/**
	 * Return the generated class configured for this serde's side, if any.
	 * @return the class name, or {@code null}
	 */
	public String recordType() {
		return className(this.isKey ? KEY_TYPE : VALUE_TYPE);
	}

	/**
	 * Return whether JSON values are validated against their schema (Lockstep's default:
	 * {@code true}).
	 * @return whether to validate
	 */
	public boolean jsonValidate() {
		return bool(JSON_FAIL_INVALID_SCHEMA, true);
	}

	/**
	 * Return whether a JSON property the value class does not know fails the read.
	 * @return whether unknown properties fail
	 */
	public boolean jsonFailUnknownProperties() {
		return bool(JSON_FAIL_UNKNOWN_PROPERTIES, true);
	}

	/**
	 * Return whether a deserializer reads each record into the generated class its writer
	 * schema names ({@code derive.type}); honoured for Protobuf, refused by the JSON Schema
	 * deserializer (Confluent's derives a class from the schema's {@code javaType}).
	 * @return whether to derive the type
	 * @throws ConfigException when a generated Protobuf class is configured as well
	 */
	public boolean deriveType() {
		boolean derive = bool(DERIVE_TYPE, false);
		if (derive && protobufType() != null) {
			throw new ConfigException(DERIVE_TYPE + "=true contradicts " + (this.isKey ? SPECIFIC_PROTOBUF_KEY_TYPE
					: SPECIFIC_PROTOBUF_VALUE_TYPE) + ", which names one generated class for every record");
		}
		return derive;
	}

	/**
	 * Return the class JSON is read into on this serde's side, if set.
	 * @return the class name, or {@code null}
	 */
	public String jsonType() {
		return className(this.isKey ? JSON_KEY_TYPE : JSON_VALUE_TYPE);
	}

	/**
	 * Return the generated Protobuf class read into on this serde's side, if set.
	 * @return the class name, or {@code null}
	 */
	public String protobufType() {
		return className(this.isKey ? SPECIFIC_PROTOBUF_KEY_TYPE : SPECIFIC_PROTOBUF_VALUE_TYPE);
	}

	// A class is given as a Class or as its name.
	private String className(String key) {
		Object value = this.configs.get(key);
		return (value instanceof Class<?> type) ? type.getName() : (value != null) ? value.toString().trim() : null;
	}

	/**
	 * Return where the JSON schema written on this serde's side is, if set.
	 * @return {@code classpath:<resource>} or a file path, or {@code null}
	 */
	public String jsonSchemaLocation() {
		String location = string(this.isKey ? JSON_KEY_SCHEMA : JSON_VALUE_SCHEMA, null);
		return (location != null && !location.isBlank()) ? location.trim() : null;
	}

	/**
	 * Return the largest message encoded or decoded, envelope included.
	 * @return the limit in bytes
	 */
	public int maxMessageBytes() {
		long value = number(MAX_MESSAGE_BYTES, WireFormat.DEFAULT_MAX_BYTES);
		if (value < WireFormat.HEADER_BYTES || value > WireFormat.MAX_MAX_BYTES) {
			throw new ConfigException(MAX_MESSAGE_BYTES, value,
					"Must be between " + WireFormat.HEADER_BYTES + " and " + WireFormat.MAX_MAX_BYTES);
		}
		return (int) value;
	}

	/**
	 * Return the entries of each cache.
	 * @return the capacity
	 */
	public int cacheCapacity() {
		return (int) number(CACHE_CAPACITY, RegistryClient.Builder.DEFAULT_CACHE_CAPACITY);
	}

	private void configureAuth(RegistryClient.Builder builder) {
		String basicSource = string(BASIC_AUTH_CREDENTIALS_SOURCE, null);
		String userInfo = string(BASIC_AUTH_USER_INFO, string("schema.registry.basic.auth.user.info", null));
		if (basicSource != null && !basicSource.equalsIgnoreCase("USER_INFO")) {
			throw new ConfigException(BASIC_AUTH_CREDENTIALS_SOURCE, basicSource,
					"Only USER_INFO is supported: credentials in the URL are refused, and SASL_INHERIT is not supported");
		}
		String bearerSource = string(BEARER_AUTH_CREDENTIALS_SOURCE, null);
		String token = string(BEARER_AUTH_TOKEN, null);
		if (bearerSource != null && !bearerSource.equalsIgnoreCase("STATIC_TOKEN")) {
			throw new ConfigException(BEARER_AUTH_CREDENTIALS_SOURCE, bearerSource, "Only STATIC_TOKEN is supported");
		}
		if (userInfo != null && token != null) {
			throw new ConfigException("Basic authentication (" + BASIC_AUTH_USER_INFO + ") and a bearer token ("
					+ BEARER_AUTH_TOKEN + ") are exclusive");
		}
		if (userInfo != null) {
			int colon = userInfo.indexOf(':');
			if (colon < 0) {
				// The value is a secret: never echo it.
				throw new ConfigException(BASIC_AUTH_USER_INFO + " must be user:password");
			}
			builder.basicAuth(userInfo.substring(0, colon), userInfo.substring(colon + 1));
		}
		else if (token != null) {
			builder.bearerToken(token);
		}
	}

	private void configureTrust(RegistryClient.Builder builder) {
		// Not a TLS setting read as unset when blank: empty turns hostname verification off.
		String algorithm = string(SSL_ENDPOINT_IDENTIFICATION, null);
		if (algorithm != null && !algorithm.equalsIgnoreCase("https")) {
			throw new ConfigException(SSL_ENDPOINT_IDENTIFICATION, algorithm,
					"Hostname verification cannot be turned off");
		}
		String caFile = tlsSetting(CA_FILE);
		String location = tlsSetting(SSL_TRUSTSTORE_LOCATION);
		if (caFile != null && location != null) {
			throw new ConfigException(CA_FILE + " and " + SSL_TRUSTSTORE_LOCATION + " are exclusive");
		}
		String type = Objects.requireNonNullElse(tlsSetting(SSL_TRUSTSTORE_TYPE), "JKS").toUpperCase(Locale.ROOT);
		if (caFile != null || (location != null && type.equals("PEM"))) {
			builder.caCertificates(Path.of((caFile != null) ? caFile : location));
		}
		else if (location != null) {
			builder.trustStore(loadStore(SSL_TRUSTSTORE_LOCATION, location, type, tlsSetting(SSL_TRUSTSTORE_PASSWORD)));
		}
		String keyStore = tlsSetting(SSL_KEYSTORE_LOCATION);
		if (keyStore != null) {
			String keyStoreType = Objects.requireNonNullElse(tlsSetting(SSL_KEYSTORE_TYPE), "JKS")
				.toUpperCase(Locale.ROOT);
			String keyStorePassword = tlsSetting(SSL_KEYSTORE_PASSWORD);
			String keyPassword = tlsSetting(SSL_KEY_PASSWORD);
			if (keyPassword == null) {
				keyPassword = keyStorePassword;
			}
			builder.clientCertificate(loadStore(SSL_KEYSTORE_LOCATION, keyStore, keyStoreType, keyStorePassword),
					(keyPassword != null) ? keyPassword.toCharArray() : null);
		}
	}

	/** A TLS setting, blank read as unset (Confluent's defaults for these keys are empty). */
	private String tlsSetting(String key) {
		String value = string(key, null);
		return (value != null && !value.isBlank()) ? value : null;
	}

	private static KeyStore loadStore(String key, String location, String type, String password) {
		try (InputStream in = Files.newInputStream(Path.of(location))) {
			KeyStore store = KeyStore.getInstance(type);
			store.load(in, (password != null) ? password.toCharArray() : null);
			return store;
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new ConfigException(key, location, "Could not load the " + type + " store: " + ex.getMessage());
		}
	}

	/**
	 * Return whether a key belongs to the registry serdes' namespace (Confluent's serde
	 * keys and Lockstep's own), where this class, not Kafka, decides what is valid.
	 * @param key a configuration key
	 * @return whether the serdes check it
	 */
	public static boolean isSerdeKey(String key) {
		return SerdeKeyPolicy.inNamespace(key);
	}

	private String string(String key, String defaultValue) {
		Object value = this.configs.get(key);
		if (value == null) {
			return defaultValue;
		}
		if (value instanceof Password password) {
			return password.value();
		}
		return value.toString();
	}

	private List<String> list(String key) {
		Object value = this.configs.get(key);
		Stream<?> items = (value instanceof Collection<?> collection) ? collection.stream()
				: (value != null) ? Arrays.stream(value.toString().split(",")) : Stream.empty();
		return items.map((item) -> item.toString().trim()).filter((item) -> !item.isEmpty()).toList();
	}

	private boolean bool(String key, boolean defaultValue) {
		Object value = this.configs.get(key);
		if (value == null) {
			return defaultValue;
		}
		if (value instanceof Boolean bool) {
			return bool;
		}
		String text = value.toString().trim();
		if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
			return Boolean.parseBoolean(text);
		}
		throw new ConfigException(key, value, "Expected true or false");
	}

	private long number(String key, long defaultValue) {
		Object value = this.configs.get(key);
		if (value == null) {
			return defaultValue;
		}
		if (value instanceof Number number) {
			return number.longValue();
		}
		try {
			return Long.parseLong(value.toString().trim());
		}
		catch (NumberFormatException ex) {
			throw new ConfigException(key, value, "Expected a whole number");
		}
	}

}
