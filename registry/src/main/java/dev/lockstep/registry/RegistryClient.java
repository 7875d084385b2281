package dev.lockstep.registry;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import javax.net.ssl.SSLContext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockstep.registry.internal.BoundedCache;
import dev.lockstep.registry.internal.DataContracts;
import dev.lockstep.registry.internal.WriterSchemas;
import dev.lockstep.registry.internal.Redaction;
import org.apache.avro.Schema;

import static dev.lockstep.registry.RegistryMessages.checkType;
import static dev.lockstep.registry.RegistryMessages.parseSchema;
import static dev.lockstep.registry.RegistryMessages.schemaBody;
import static dev.lockstep.registry.RegistryMessages.schemaId;
import static dev.lockstep.registry.RegistryMessages.schemaText;
import static dev.lockstep.registry.RegistryMessages.textField;
import static dev.lockstep.registry.RegistryMessages.versionNumber;

/**
 * A client of the Confluent Schema Registry REST API: Avro schemas parsed
 * ({@link #schemaById}), and schemas of every type as text ({@link #schema}) for the
 * other formats' codecs, with the schemas they reference
 * ({@link #referencedSchemas}).
 * <p>
 * Thread-safe. Successful id and (subject, schema) look-ups are cached, keyed by id or by
 * schema text; a cache hit takes no lock and does no I/O, and concurrent misses for one
 * key make one request. Versions, registrations and failures are not cached. Failures
 * are {@link RegistryException}s; an invalid successful response is one too.
 */
public final class RegistryClient {

	/** Longest schema text accepted from a registry: 1 MiB of UTF-8. */
	public static final int MAX_SCHEMA_BYTES = 1024 * 1024;

	/** The deepest chain of references resolved. */
	public static final int MAX_REFERENCE_DEPTH = 32;

	/** The most schemas one schema may reference, transitively. */
	public static final int MAX_REFERENCES = 256;

	/** The registry's error codes for a subject or a version it does not have. */
	private static final Set<Integer> NOT_FOUND = Set.of(40401, 40402);

	private static final ObjectMapper JSON = new ObjectMapper();

	private final RegistryHttp http;

	private final BoundedCache<Long, Schema> schemasById;

	private final BoundedCache<Long, RegistrySchema> textsById;

	private final BoundedCache<UUID, RegistrySchema> textsByGuid;

	// What GET /schemas/ids/{id} named as the schema's GUID; empty when it named none.
	private final BoundedCache<Long, Optional<UUID>> guidsById;

	private final BoundedCache<SchemaId, RegistrySchema> serializedTexts;

	private final BoundedCache<SubjectSchema, Long> idsBySchema;

	private final BoundedCache<SchemaReference, RegistrySchema> referenced;

	// How often the registry has answered that it does not know an id or GUID (40403).
	private final BoundedCache<SchemaId, AtomicInteger> unknownIdAnswers;

	private final InFlightLoads inFlight = new InFlightLoads();

	private final RegistryListener listener;

	// Appended to registrations and look-ups alike: the registry must normalize both or neither.
	private final String normalize;

	private final Set<String> ignoredRules;

	private RegistryClient(RegistryHttp http, int cacheCapacity, RegistryListener listener, boolean normalize,
			Set<String> ignoredRules) {
		this.http = http;
		this.listener = listener;
		this.normalize = normalize ? "?normalize=true" : "";
		this.ignoredRules = ignoredRules;
		listener.clientCreated();
		this.schemasById = new BoundedCache<>(cacheCapacity);
		this.textsById = new BoundedCache<>(cacheCapacity);
		this.textsByGuid = new BoundedCache<>(cacheCapacity);
		this.guidsById = new BoundedCache<>(cacheCapacity);
		this.serializedTexts = new BoundedCache<>(cacheCapacity);
		this.idsBySchema = new BoundedCache<>(cacheCapacity);
		this.referenced = new BoundedCache<>(cacheCapacity);
		this.unknownIdAnswers = new BoundedCache<>(cacheCapacity);
	}

	/**
	 * Start building a client for one or more registry base URLs; a request fails over to
	 * the next URL when one fails with a retryable error.
	 * @param baseUrls http or https URLs, optionally with a path prefix
	 * @return a builder
	 */
	public static Builder builder(String... baseUrls) {
		return new Builder(List.of(baseUrls));
	}

	/**
	 * Start building a client for one or more registry base URLs.
	 * @param baseUrls http or https URLs, optionally with a path prefix
	 * @return a builder
	 */
	public static Builder builder(Collection<String> baseUrls) {
		return new Builder(List.copyOf(baseUrls));
	}

	/**
	 * Find the id of a schema already registered under a subject, without creating a
	 * version ({@code POST /subjects/{subject}}).
	 * @param subject the subject
	 * @param schema the schema
	 * @return the schema's id
	 */
	public long lookup(String subject, Schema schema) {
		return lookup(subject, new RegistrySchema(RegistrySchema.AVRO, schema.toString()));
	}

	/**
	 * Find the id of a schema of any type already registered under a subject, without
	 * creating a version ({@code POST /subjects/{subject}}).
	 * @param subject the subject
	 * @param schema the schema's type and text
	 * @return the schema's id
	 */
	public long lookup(String subject, RegistrySchema schema) {
		SubjectSchema key = new SubjectSchema(subject, schema);
		Long cached = this.idsBySchema.get(key);
		this.listener.cacheAccess("ids", cached != null);
		if (cached != null) {
			return cached;
		}
		return this.inFlight.load(key, () -> {
			long id = request("lookup", "POST", "/subjects/" + encode(subject) + this.normalize, schemaBody(schema),
					RegistryMessages::schemaId);
			this.idsBySchema.put(key, id);
			return id;
		});
	}

	/**
	 * Register a schema under a subject, or find its id when already registered
	 * ({@code POST /subjects/{subject}/versions}). The registry's compatibility rules apply.
	 * @param subject the subject
	 * @param schema the schema
	 * @return the schema's id
	 */
	public long register(String subject, Schema schema) {
		return register(subject, new RegistrySchema(RegistrySchema.AVRO, schema.toString()));
	}

	/**
	 * Register a schema of any type under a subject, or find its id when already
	 * registered ({@code POST /subjects/{subject}/versions}).
	 * @param subject the subject
	 * @param schema the schema's type and text
	 * @return the schema's id
	 */
	public long register(String subject, RegistrySchema schema) {
		return request("register", "POST", "/subjects/" + encode(subject) + "/versions" + this.normalize,
				schemaBody(schema), RegistryMessages::schemaId);
	}

	/**
	 * Fetch a schema by id ({@code GET /schemas/ids/{id}}), cached.
	 * @param id an unsigned 32-bit id
	 * @return the schema
	 */
	public Schema schemaById(long id) {
		WireFormat.checkSchemaId(id);
		Schema cached = this.schemasById.get(id);
		this.listener.cacheAccess("schemas", cached != null);
		if (cached != null) {
			return cached;
		}
		return this.inFlight.load(id, () -> {
			// Through the text cache, which one access of the parsed cache already counted.
			RegistrySchema text = this.textsById.get(id);
			RegistrySchema fetched = (text != null) ? text : fetchText(id);
			checkType(id, fetched, RegistrySchema.AVRO);
			Schema schema = parseSchema(fetched.text(), referencedSchemas(fetched).values());
			this.schemasById.put(id, schema);
			return schema;
		});
	}

	/**
	 * Fetch a schema of any type by id ({@code GET /schemas/ids/{id}}), unparsed, cached.
	 * @param id an unsigned 32-bit id
	 * @return the schema's type and text
	 */
	public RegistrySchema schema(long id) {
		WireFormat.checkSchemaId(id);
		RegistrySchema cached = this.textsById.get(id);
		this.listener.cacheAccess("schemas", cached != null);
		return (cached != null) ? cached : fetchText(id);
	}

	/**
	 * Fetch a schema of any type by id ({@code GET /schemas/ids/{id}}) or by GUID
	 * ({@code GET /schemas/guids/{guid}}), unparsed, cached.
	 * @param schemaId the id or GUID
	 * @return the schema's type and text
	 */
	public RegistrySchema schema(SchemaId schemaId) {
		if (!schemaId.isGuid()) {
			return schema(schemaId.id());
		}
		RegistrySchema cached = this.textsByGuid.get(schemaId.guid());
		this.listener.cacheAccess("schemas", cached != null);
		if (cached != null) {
			return cached;
		}
		return this.inFlight.load(schemaId, () -> {
			RegistrySchema schema = fetch("schema-by-guid", "/schemas/guids/" + schemaId.guid(), schemaId);
			this.textsByGuid.put(schemaId.guid(), schema);
			return schema;
		});
	}

	/**
	 * Fetch a schema by id or GUID as Confluent's {@code format=serialized} answers it (a
	 * Protobuf schema as its base64 serialized file descriptor, made by the registry's own
	 * parser of the text it stores), cached. A registry that does not know the parameter
	 * answers with the schema as stored.
	 * @param schemaId the id or GUID
	 * @return the schema's type and text
	 */
	public RegistrySchema serializedSchema(SchemaId schemaId) {
		RegistrySchema cached = this.serializedTexts.get(schemaId);
		this.listener.cacheAccess("schemas", cached != null);
		if (cached != null) {
			return cached;
		}
		return this.inFlight.load(new Serialized(schemaId), () -> {
			RegistrySchema schema = schemaId.isGuid()
					? fetch("schema-by-guid", "/schemas/guids/" + schemaId.guid() + "?format=serialized", schemaId)
					: fetch("schema-by-id", "/schemas/ids/" + schemaId.id() + "?format=serialized", schemaId);
			this.serializedTexts.put(schemaId, schema);
			return schema;
		});
	}

	/**
	 * Fetch the GUID of a schema id ({@code GET /schemas/ids/{id}}, its {@code guid}),
	 * cached: what a writer puts in a schema id header.
	 * @param id an unsigned 32-bit id
	 * @return the schema's GUID
	 * @throws UnsupportedSchemaException when the registry names no GUID (registries
	 * before Confluent Platform 8)
	 */
	public UUID guid(long id) {
		WireFormat.checkSchemaId(id);
		Optional<UUID> guid = this.guidsById.get(id);
		if (guid == null) {
			// The same answer as the schema's text names its GUID: one request for both.
			guid = fetchById(id).guid();
		}
		return guid.orElseThrow(() -> new UnsupportedSchemaException("The registry names no GUID for schema id " + id
				+ " (Confluent Platform 8 and Lockstep's development registry do): its id cannot go into a header",
				null));
	}

	/**
	 * Fetch an Avro schema by id or GUID, parsed with the schemas it references; by id
	 * cached as {@link #schemaById}, by GUID parsed from the cached text.
	 * @param schemaId the id or GUID
	 * @return the schema
	 */
	public Schema avroSchema(SchemaId schemaId) {
		if (!schemaId.isGuid()) {
			return schemaById(schemaId.id());
		}
		RegistrySchema text = schema(schemaId);
		checkType(schemaId, text, RegistrySchema.AVRO);
		return parseSchema(text.text(), referencedSchemas(text).values());
	}

	private RegistrySchema fetchText(long id) {
		return fetchById(id).schema();
	}

	private ById fetchById(long id) {
		return this.inFlight.load(new SchemaText(id), () -> {
			ById fetched = fetch("schema-by-id", "/schemas/ids/" + id, SchemaId.of(id),
					(response) -> new ById(RegistryMessages.schemaText(response), RegistryMessages.guid(response)));
			this.textsById.put(id, fetched.schema());
			this.guidsById.put(id, fetched.guid());
			return fetched;
		});
	}

	/**
	 * Find the version under which a subject holds a schema ({@code POST /subjects/{subject}});
	 * never creates one. Not cached.
	 * @param subject the subject
	 * @param schema the schema's type, text and references
	 * @return the subject's version of it
	 */
	public SubjectVersion lookupVersion(String subject, RegistrySchema schema) {
		return request("lookup", "POST", "/subjects/" + encode(subject) + this.normalize, schemaBody(schema),
				(response) -> new SubjectVersion(textField(response, "subject"), versionNumber(response),
						schemaId(response), schemaText(response)));
	}

	/**
	 * Fetch the schemas a schema references, transitively ({@code GET
	 * /subjects/{subject}/versions/{version}} for each, cached by subject and version).
	 * @param schema the schema
	 * @return each referenced schema's text by the name it is referenced by, every schema
	 * after those it references; empty for a schema without references
	 * @throws UnsupportedSchemaException when a reference names no subject version,
	 * references nest deeper than {@value #MAX_REFERENCE_DEPTH} or number more than
	 * {@value #MAX_REFERENCES}, or form a cycle
	 * @throws RegistryException when the registry fails otherwise
	 */
	public Map<String, String> referencedSchemas(RegistrySchema schema) {
		if (schema.references().isEmpty()) {
			return Map.of();
		}
		Map<String, String> texts = new LinkedHashMap<>();
		resolve(schema.references(), texts, new ArrayDeque<>());
		return texts;
	}

	private void resolve(List<SchemaReference> references, Map<String, String> texts, Deque<String> resolving) {
		if (resolving.size() >= MAX_REFERENCE_DEPTH) {
			throw new UnsupportedSchemaException("Schema references nest deeper than " + MAX_REFERENCE_DEPTH, null);
		}
		for (SchemaReference reference : references) {
			if (texts.containsKey(reference.name())) {
				continue;
			}
			if (resolving.contains(reference.name())) {
				throw new UnsupportedSchemaException("Schema references form a cycle through " + reference.name(), null);
			}
			RegistrySchema referenced = referenced(reference);
			resolving.push(reference.name());
			resolve(referenced.references(), texts, resolving);
			resolving.pop();
			texts.put(reference.name(), referenced.text());
			if (texts.size() > MAX_REFERENCES) {
				throw new UnsupportedSchemaException("A schema references more than " + MAX_REFERENCES + " schemas",
						null);
			}
		}
	}

	private RegistrySchema referenced(SchemaReference reference) {
		// The name is the referencing schema's; the cache is by subject and version.
		SchemaReference key = new SchemaReference("", reference.subject(), reference.version());
		RegistrySchema cached = this.referenced.get(key);
		this.listener.cacheAccess("references", cached != null);
		if (cached != null) {
			return cached;
		}
		return this.inFlight.load(key, () -> {
			RegistrySchema schema;
			try {
				schema = request("reference", "GET", "/subjects/" + encode(reference.subject()) + "/versions/"
						+ reference.version(), null, RegistryMessages::schemaText);
			}
			catch (RegistryException ex) {
				if (NOT_FOUND.contains(ex.errorCode())) {
					throw new UnsupportedSchemaException("Reference " + reference.name() + " names version "
							+ reference.version() + " of subject " + reference.subject() + ", which the registry "
							+ "does not have: " + ex.getMessage(), ex);
				}
				throw ex;
			}
			this.referenced.put(key, schema);
			return schema;
		});
	}

	/**
	 * Fetch one version of a subject ({@code GET /subjects/{subject}/versions/{version}}).
	 * @param subject the subject
	 * @param version the version, from 1
	 * @return the version
	 */
	public SchemaVersion version(String subject, int version) {
		if (version < 1) {
			throw new IllegalArgumentException("Version must be at least 1, not " + version);
		}
		return fetchVersion(subject, Integer.toString(version));
	}

	/**
	 * Fetch the latest version of a subject ({@code GET /subjects/{subject}/versions/latest}).
	 * @param subject the subject
	 * @return the latest version
	 */
	public SchemaVersion latestVersion(String subject) {
		return fetchVersion(subject, "latest");
	}

	/**
	 * Fetch the latest version of a subject of any type, its schema unparsed
	 * ({@code GET /subjects/{subject}/versions/latest}).
	 * @param subject the subject
	 * @return the latest version
	 */
	public SubjectVersion latestSubjectVersion(String subject) {
		return request("latest-version", "GET", "/subjects/" + encode(subject) + "/versions/latest", null,
				(response) -> new SubjectVersion(textField(response, "subject"), versionNumber(response),
						schemaId(response), schemaText(response)));
	}

	/**
	 * Check that a writer may use a subject: its latest version must carry no
	 * data-contract rule to run on write that this client does not
	 * {@linkplain #ignoredRules() ignore}. A subject without versions passes.
	 * @param subject the subject
	 * @throws DataContractException naming the first such rule
	 * @throws RegistryException when the registry fails
	 */
	public void requireWritable(String subject) {
		SubjectVersion latest;
		try {
			latest = latestSubjectVersion(subject);
		}
		catch (RegistryException ex) {
			if (NOT_FOUND.contains(ex.errorCode())) {
				return;
			}
			throw ex;
		}
		DataContracts.check(latest.schema(), DataContracts.Direction.WRITE, this.ignoredRules);
	}

	/**
	 * Check the registry answers: {@code GET /config} (the global compatibility level),
	 * with the usual retries and failover. Never cached.
	 * @return the registry's global compatibility level
	 */
	public String ping() {
		return request("ping", "GET", "/config", null, (response) -> textField(response, "compatibilityLevel"));
	}

	/**
	 * Return the data-contract rules the codecs of this client go on without, by rule name
	 * or rule type ({@link Builder#ignoredRules}).
	 * @return the rule names and types, empty by default
	 */
	public Set<String> ignoredRules() {
		return this.ignoredRules;
	}

	/**
	 * Return the longest one operation can block when the registry does not answer: each
	 * of the {@code retries + 1} attempts tries every base URL, each request bounded by the
	 * timeout, plus the back-offs between attempts at their ceilings. With the defaults and
	 * one URL: 3 × 10 s + 100 ms + 200 ms = 30.3 s.
	 * @return the worst-case duration of one operation
	 */
	public Duration longestWait() {
		return this.http.longestWait();
	}

	/**
	 * Forget every cached id and schema.
	 */
	public void clearCaches() {
		this.schemasById.clear();
		this.textsById.clear();
		this.textsByGuid.clear();
		this.guidsById.clear();
		this.serializedTexts.clear();
		this.idsBySchema.clear();
		this.referenced.clear();
		this.unknownIdAnswers.clear();
	}

	private SchemaVersion fetchVersion(String subject, String version) {
		return request(version.equals("latest") ? "latest-version" : "version", "GET",
				"/subjects/" + encode(subject) + "/versions/" + version, null,
				(response) -> new SchemaVersion(textField(response, "subject"), versionNumber(response),
						schemaId(response), avroSchema(schemaId(response), schemaText(response))));
	}

	private Schema avroSchema(long id, RegistrySchema schema) {
		checkType(id, schema, RegistrySchema.AVRO);
		return parseSchema(schema.text(), referencedSchemas(schema).values());
	}

	private RegistrySchema fetch(String operation, String path, SchemaId id) {
		return fetch(operation, path, id, RegistryMessages::schemaText);
	}

	private <T> T fetch(String operation, String path, SchemaId id, Function<JsonNode, T> read) {
		try {
			return request(operation, "GET", path, null, read);
		}
		catch (RegistryException ex) {
			if (ex.errorCode() == WriterSchemas.SCHEMA_NOT_FOUND) {
				this.unknownIdAnswers.put(id, new AtomicInteger());
				AtomicInteger answers = this.unknownIdAnswers.get(id);
				if (answers != null) {
					answers.incrementAndGet();
				}
			}
			throw ex;
		}
	}

	/**
	 * Return how many times the registry has answered that it does not know a schema id
	 * (error code 40403). Ids are never reused, but a registry follower may not yet know
	 * one its leader assigned a moment ago: decoders take an id as unknown only after
	 * several such answers.
	 * @param id the schema id
	 * @return the number of answers (0 when none, or forgotten)
	 */
	public int unknownIdAnswers(long id) {
		return unknownIdAnswers(SchemaId.of(id));
	}

	/**
	 * Return how many times the registry has answered that it does not know a schema id
	 * or GUID (error code 40403), as {@link #unknownIdAnswers(long)}.
	 * @param schemaId the id or GUID
	 * @return the number of answers (0 when none, or forgotten)
	 */
	public int unknownIdAnswers(SchemaId schemaId) {
		AtomicInteger answers = this.unknownIdAnswers.get(schemaId);
		return (answers != null) ? answers.get() : 0;
	}

	/**
	 * Send one operation and read its response, telling the listener how it went.
	 */
	private <T> T request(String operation, String method, String path, JsonNode body, Function<JsonNode, T> read) {
		long started = System.nanoTime();
		String outcome = "success";
		try {
			return read.apply(this.http.send(method, path, body));
		}
		catch (RegistryException ex) {
			outcome = (ex.statusCode() == 0) ? "transport-error"
					: (ex.statusCode() >= 500) ? "server-error"
							: (ex.statusCode() >= 300) ? "client-error" : "invalid-response";
			throw ex;
		}
		finally {
			this.listener.request(operation, outcome, Duration.ofNanos(System.nanoTime() - started));
		}
	}

	private static String encode(String subject) {
		if (subject == null || subject.isEmpty()) {
			throw new IllegalArgumentException("Subject must not be empty");
		}
		return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
	}

	/**
	 * A subject and a schema: the key of the look-up cache.
	 */
	record SubjectSchema(String subject, RegistrySchema schema) {

	}

	/**
	 * The key of a schema fetched in serialized form while it is in flight.
	 */
	private record Serialized(SchemaId schemaId) {

	}

	/**
	 * What the registry answers for a schema id: the schema, and the GUID it names, if any.
	 */
	private record ById(RegistrySchema schema, Optional<UUID> guid) {

	}

	/**
	 * The key of a schema fetched as text while it is in flight (the parsed Avro
	 * schema's key is its id).
	 */
	private record SchemaText(long id) {

	}

	/**
	 * Builds a {@link RegistryClient}. Every option has the documented default and range.
	 */
	public static final class Builder {

		/**
		 * Default per-request timeout, connect included: short enough that a worker's worst
		 * wait on the registry ((retries + 1) x URLs x timeout) fits its transaction timeout.
		 */
		public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

		/** Default limit of a response body: 8 MiB. */
		public static final int DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

		/** Default entries per cache. */
		public static final int DEFAULT_CACHE_CAPACITY = 64;

		/** Default retries after the first attempt: three attempts in all. */
		public static final int DEFAULT_RETRIES = 2;

		private final List<String> baseUrls;

		private String username;

		private String password;

		private String bearerToken;

		private Path caCertificates;

		private KeyStore trustStore;

		private KeyStore clientKeyStore;

		private char[] clientKeyPassword;

		private SSLContext sslContext;

		private Duration timeout = DEFAULT_TIMEOUT;

		private int maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;

		private int cacheCapacity = DEFAULT_CACHE_CAPACITY;

		private int retries = DEFAULT_RETRIES;

		private Duration initialBackoff = Duration.ofMillis(100);

		private Duration maxBackoff = Duration.ofSeconds(2);

		private RegistryListener listener = RegistryListener.NONE;

		private boolean normalizeSchemas;

		private Set<String> ignoredRules = Set.of();

		private Builder(List<String> baseUrls) {
			this.baseUrls = baseUrls;
		}

		/**
		 * Authenticate with HTTP Basic.
		 * @param username the user
		 * @param password the password
		 * @return this builder
		 */
		public Builder basicAuth(String username, String password) {
			this.username = username;
			this.password = password;
			return this;
		}

		/**
		 * Authenticate with a static bearer token.
		 * @param token the token
		 * @return this builder
		 */
		public Builder bearerToken(String token) {
			this.bearerToken = token;
			return this;
		}

		/**
		 * Trust the CA certificates of a PEM file instead of the JDK's default trust store.
		 * Hostname verification stays on.
		 * @param pemFile the PEM file
		 * @return this builder
		 */
		public Builder caCertificates(Path pemFile) {
			this.caCertificates = pemFile;
			return this;
		}

		/**
		 * Trust the certificates of a key store instead of the JDK's default trust store.
		 * @param trustStore the trust store
		 * @return this builder
		 */
		public Builder trustStore(KeyStore trustStore) {
			this.trustStore = trustStore;
			return this;
		}

		/**
		 * Present the certificate of a key store's key entry to a registry that asks for
		 * one (mutual TLS).
		 * @param keyStore the key store
		 * @param keyPassword the password of its key
		 * @return this builder
		 */
		public Builder clientCertificate(KeyStore keyStore, char[] keyPassword) {
			this.clientKeyStore = keyStore;
			this.clientKeyPassword = keyPassword;
			return this;
		}

		/**
		 * Use a TLS context built elsewhere, such as a Spring Boot SSL bundle's: its trust and
		 * its client certificate, instead of {@link #caCertificates}, {@link #trustStore} and
		 * {@link #clientCertificate}. Hostname verification stays on.
		 * @param sslContext the context
		 * @return this builder
		 */
		public Builder sslContext(SSLContext sslContext) {
			this.sslContext = sslContext;
			return this;
		}

		/**
		 * Set the deadline of one request, connect, headers and body included.
		 * @param timeout positive, at most one hour (default 10 s)
		 * @return this builder
		 */
		public Builder timeout(Duration timeout) {
			this.timeout = timeout;
			return this;
		}

		/**
		 * Set the largest response body accepted.
		 * @param maxResponseBytes 1 byte to 16 MiB (default 8 MiB)
		 * @return this builder
		 */
		public Builder maxResponseBytes(int maxResponseBytes) {
			this.maxResponseBytes = maxResponseBytes;
			return this;
		}

		/**
		 * Set the entries of each cache.
		 * @param cacheCapacity 1 to 1,024 (default 64)
		 * @return this builder
		 */
		public Builder cacheCapacity(int cacheCapacity) {
			this.cacheCapacity = cacheCapacity;
			return this;
		}

		/**
		 * Set how often a retryable failure (I/O, timeout, 408, 429, 5xx) is retried.
		 * @param retries 0 (no retrying) to 10 (default 2: three attempts in all)
		 * @return this builder
		 */
		public Builder retries(int retries) {
			this.retries = retries;
			return this;
		}

		/**
		 * Set the backoff between attempts: it starts at {@code initial}, doubles up to
		 * {@code max}, and each wait is jittered between half and all of it.
		 * @param initial the first backoff (default 100 ms)
		 * @param max the largest backoff (default 2 s)
		 * @return this builder
		 */
		public Builder backoff(Duration initial, Duration max) {
			this.initialBackoff = initial;
			this.maxBackoff = max;
			return this;
		}

		/**
		 * Ask the registry to normalize schemas ({@code ?normalize=true}, Confluent's
		 * {@code normalize.schemas}) on registration and look-up alike, so that a schema
		 * registered normalized is found again.
		 * @param normalizeSchemas whether to normalize (default {@code false})
		 * @return this builder
		 */
		public Builder normalizeSchemas(boolean normalizeSchemas) {
			this.normalizeSchemas = normalizeSchemas;
			return this;
		}

		/**
		 * Go on without some of Confluent's data-contract rules: codecs refuse a schema whose
		 * {@code ruleSet} holds a rule that applies in their direction
		 * ({@link DataContractException}), unless its name or its type ({@code ENCRYPT},
		 * {@code CEL}...) is listed here. Lockstep runs no rule: list one only when data may
		 * pass unchecked, unencrypted or untransformed by it.
		 * @param namesOrTypes rule names and rule types (default none)
		 * @return this builder
		 */
		public Builder ignoredRules(Collection<String> namesOrTypes) {
			this.ignoredRules = Set.copyOf(namesOrTypes);
			return this;
		}

		/**
		 * Hear the client's requests and cache accesses, for metrics.
		 * @param listener the listener
		 * @return this builder
		 */
		public Builder listener(RegistryListener listener) {
			this.listener = listener;
			return this;
		}

		/**
		 * Build the client.
		 * @return the client
		 * @throws IllegalArgumentException when an option is out of range or a URL is refused
		 */
		public RegistryClient build() {
			List<URI> urls = parseBaseUrls(this.baseUrls);
			require(!this.timeout.isNegative() && !this.timeout.isZero() && this.timeout.compareTo(Duration.ofHours(1)) <= 0,
					"timeout must be positive and at most 1 hour, not " + this.timeout);
			require(this.maxResponseBytes >= 1 && this.maxResponseBytes <= 16 * 1024 * 1024,
					"maxResponseBytes must be between 1 and 16 MiB, not " + this.maxResponseBytes);
			require(this.cacheCapacity >= 1 && this.cacheCapacity <= 1024,
					"cacheCapacity must be between 1 and 1024, not " + this.cacheCapacity);
			require(this.retries >= 0 && this.retries <= 10, "retries must be between 0 and 10, not " + this.retries);
			require(!this.initialBackoff.isNegative() && this.maxBackoff.compareTo(this.initialBackoff) >= 0,
					"backoff must be non-negative with max >= initial");
			require(this.bearerToken == null || this.username == null,
					"Basic authentication and a bearer token are exclusive");
			require(this.caCertificates == null || this.trustStore == null,
					"a CA certificate file and a trust store are exclusive");
			require(this.sslContext == null
					|| (this.caCertificates == null && this.trustStore == null && this.clientKeyStore == null),
					"a TLS context excludes CA certificates, a trust store and a client certificate");
			SSLContext tls = (this.sslContext != null) ? this.sslContext
					: RegistryTrust.sslContext(this.caCertificates, this.trustStore, this.clientKeyStore,
							this.clientKeyPassword);
			RegistryHttp http = new RegistryHttp(urls, tls, authorization(), this.timeout,
					this.maxResponseBytes, this.retries, this.initialBackoff, this.maxBackoff, JSON);
			return new RegistryClient(http, this.cacheCapacity, this.listener, this.normalizeSchemas,
					this.ignoredRules);
		}

		private String authorization() {
			if (this.username != null) {
				String credentials = this.username + ":" + ((this.password != null) ? this.password : "");
				return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
			}
			return (this.bearerToken != null) ? "Bearer " + this.bearerToken : null;
		}

		private static List<URI> parseBaseUrls(List<String> baseUrls) {
			require(!baseUrls.isEmpty(), "at least one registry URL is needed");
			List<URI> urls = new ArrayList<>();
			for (String url : baseUrls) {
				URI uri;
				try {
					uri = new URI(url.trim());
				}
				catch (URISyntaxException ex) {
					// The exception's message echoes the whole URL, password included.
					throw new IllegalArgumentException("Invalid registry URL " + Redaction.url(url.trim()) + ": "
							+ ex.getReason() + ((ex.getIndex() >= 0) ? " at index " + ex.getIndex() : ""));
				}
				String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : "";
				require(scheme.equals("http") || scheme.equals("https"),
						"registry URL must use http or https: " + redact(uri));
				require(uri.getRawUserInfo() == null,
						"registry URL must not embed credentials; use basic auth options: " + redact(uri));
				require(uri.getHost() != null, "registry URL has no host: " + redact(uri));
				require(uri.getRawQuery() == null, "registry URL must not have a query: " + redact(uri));
				require(uri.getRawFragment() == null, "registry URL must not have a fragment: " + redact(uri));
				String path = (uri.getRawPath() != null) ? uri.getRawPath().replaceAll("/+$", "") : "";
				urls.add(URI.create(scheme + "://" + uri.getRawAuthority() + path));
			}
			return urls;
		}

		private static String redact(URI uri) {
			// On the text, not on getRawUserInfo(): with a registry-based authority (an '@' in
			// the password) the URI has no user information, yet the text holds the password.
			return Redaction.url(uri.toString());
		}

		private static void require(boolean condition, String message) {
			if (!condition) {
				throw new IllegalArgumentException("Invalid registry client option: " + message);
			}
		}

	}

}
