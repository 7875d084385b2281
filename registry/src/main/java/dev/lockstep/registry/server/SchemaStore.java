package dev.lockstep.registry.server;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.SchemaReference;
import dev.lockstep.registry.internal.SchemaJson;

/**
 * The embedded registry's subjects, versions, schemas by id and compatibility levels, in
 * memory and, with a directory, saved after each change ({@link SchemaFile}).
 * Not thread-safe: the registry calls it under its own lock.
 */
final class SchemaStore {

	/** The deepest chain of references resolved. */
	static final int MAX_REFERENCE_DEPTH = 32;

	/** The most references one schema may pull in, transitively. */
	static final int MAX_REFERENCES = 256;

	// Null without a data directory: kept in memory only.
	private final SchemaFile file;

	private final Map<String, List<Version>> subjects = new TreeMap<>();

	private final Map<String, Compatibility> subjectCompatibility = new TreeMap<>();

	private final Map<Long, RegistrySchema> schemas = new TreeMap<>();

	private final boolean validate;

	private Compatibility compatibility;

	private long nextId = 1;

	private boolean closed;

	SchemaStore(Path directory, Compatibility compatibility, boolean validate) {
		this.file = (directory != null) ? new SchemaFile(directory) : null;
		this.compatibility = compatibility;
		this.validate = validate;
		if (this.file != null) {
			this.file.read(compatibility).ifPresent((saved) -> {
				this.nextId = saved.nextId();
				this.compatibility = saved.compatibility();
				this.subjects.putAll(saved.subjects());
				this.subjectCompatibility.putAll(saved.subjectCompatibility());
				this.schemas.putAll(saved.schemas());
			});
		}
	}

	/** A subject's version. */
	record Version(int version, long id) {

	}

	/** Thrown for a request the store refuses, with the registry's status and error code. */
	static final class Refusal extends RuntimeException {

		private final int status;

		private final int errorCode;

		Refusal(int status, int errorCode, String message) {
			super(message);
			this.status = status;
			this.errorCode = errorCode;
		}

		int status() {
			return this.status;
		}

		int errorCode() {
			return this.errorCode;
		}

	}

	RegistrySchema schema(long id) {
		RegistrySchema stored = this.schemas.get(id);
		if (stored == null) {
			throw new Refusal(404, 40403, "Schema " + id + " not found");
		}
		return stored;
	}

	/**
	 * Return a schema as a request asks for it: as stored, or with {@code format=serialized}
	 * a Protobuf schema's text as its base64 serialized file descriptor.
	 */
	RegistrySchema schema(long id, String format) {
		RegistrySchema stored = schema(id);
		if (!"serialized".equals(format) || !stored.type().equals(RegistrySchema.PROTOBUF)) {
			return stored;
		}
		Map<String, String> references;
		try {
			references = resolve(stored.references());
		}
		catch (Refusal ex) {
			return stored;
		}
		return new RegistrySchema(stored.type(), SchemaRules.serialized(stored, references), stored.references(),
				stored.metadata(), stored.ruleSet());
	}

	/**
	 * Return the id of the schema of a GUID.
	 */
	long id(UUID guid) {
		return this.schemas.entrySet()
			.stream()
			.filter((entry) -> guid(entry.getValue()).equals(guid))
			.map(Map.Entry::getKey)
			.findFirst()
			.orElseThrow(() -> new Refusal(404, 40403, "Schema " + guid + " not found"));
	}

	/**
	 * Return a schema's GUID: a fingerprint of all it is (type, text, references, metadata
	 * and rule set), as Confluent's registry makes one; derived, so never stored.
	 */
	static UUID guid(RegistrySchema schema) {
		ObjectNode fields = SchemaJson.write(schema, JsonNodeFactory.instance.objectNode());
		fields.put("schemaType", schema.type());
		return UUID.nameUUIDFromBytes(fields.toString().getBytes(StandardCharsets.UTF_8));
	}

	List<String> subjects() {
		return List.copyOf(this.subjects.keySet());
	}

	List<Version> versions(String subject) {
		List<Version> versions = this.subjects.get(subject);
		if (versions == null || versions.isEmpty()) {
			throw new Refusal(404, 40401, "Subject '" + subject + "' not found.");
		}
		return versions;
	}

	Version version(String subject, String version) {
		List<Version> versions = versions(subject);
		if (version.equals("latest") || version.equals("-1")) {
			return versions.get(versions.size() - 1);
		}
		for (Version candidate : versions) {
			if (Integer.toString(candidate.version()).equals(version)) {
				return candidate;
			}
		}
		throw new Refusal(404, 40402, "Version " + version + " not found.");
	}

	Version lookup(String subject, RegistrySchema schema) {
		if (this.validate) {
			try {
				SchemaRules.check(schema, resolve(schema.references()));
			}
			catch (IllegalArgumentException ex) {
				throw new Refusal(422, 42201, "Invalid schema: " + ex.getMessage());
			}
		}
		for (Version version : versions(subject)) {
			if (matches(this.schemas.get(version.id()), schema)) {
				return version;
			}
		}
		throw new Refusal(404, 40403, "Schema not found");
	}

	/**
	 * Register a schema under a subject: its existing version when it is there already,
	 * otherwise a new version after the compatibility check.
	 */
	long register(String subject, RegistrySchema requested) {
		// Unvalidated (a test's registry), references are kept as given, even broken ones.
		Map<String, String> references = this.validate ? resolve(requested.references()) : Map.of();
		try {
			if (this.validate) {
				SchemaRules.check(requested, references);
			}
		}
		catch (IllegalArgumentException ex) {
			throw new Refusal(422, 42201, "Either the input schema or one of its references is invalid: "
					+ ex.getMessage());
		}
		List<Version> versions = this.subjects.computeIfAbsent(subject, (key) -> new ArrayList<>());
		for (Version version : versions) {
			if (matches(this.schemas.get(version.id()), requested)) {
				return version.id();
			}
		}
		RegistrySchema schema = inheritContract(requested, versions);
		if (this.validate) {
			List<String> problems = problems(subject, versions, schema, references);
			if (!problems.isEmpty()) {
				throw new Refusal(409, 409, "Schema being registered is incompatible with an earlier schema for "
						+ "subject \"" + subject + "\" (" + compatibility(subject) + "), details: " + problems);
			}
		}
		Long existing = this.schemas.entrySet()
			.stream()
			.filter((entry) -> same(entry.getValue(), schema)
					&& Objects.equals(entry.getValue().metadata(), schema.metadata())
					&& Objects.equals(entry.getValue().ruleSet(), schema.ruleSet()))
			.map(Map.Entry::getKey)
			.findFirst()
			.orElse(null);
		long id = (existing != null) ? existing : this.nextId++;
		if (existing == null) {
			this.schemas.put(id, schema);
		}
		int next = versions.isEmpty() ? 1 : versions.get(versions.size() - 1).version() + 1;
		versions.add(new Version(next, id));
		try {
			save();
		}
		catch (RuntimeException ex) {
			// Nothing the file does not hold may be answered: a later run would reuse the id.
			versions.remove(versions.size() - 1);
			if (existing == null) {
				this.schemas.remove(id);
				this.nextId--;
			}
			throw ex;
		}
		return id;
	}

	Compatibility compatibility(String subject) {
		return (subject != null) ? this.subjectCompatibility.getOrDefault(subject, this.compatibility)
				: this.compatibility;
	}

	/**
	 * Return a subject's own level, as {@code GET /config/{subject}} answers it.
	 */
	Compatibility subjectCompatibility(String subject, boolean defaultToGlobal) {
		Compatibility level = this.subjectCompatibility.get(subject);
		if (level == null && !defaultToGlobal) {
			throw new Refusal(404, 40408, "Subject '" + subject + "' does not have subject-level compatibility "
					+ "configured");
		}
		return (level != null) ? level : this.compatibility;
	}

	/**
	 * Refuse every change from now on: the registry is closing, and its directory may
	 * soon be another's.
	 */
	void close() {
		this.closed = true;
	}

	void compatibility(String subject, Compatibility level) {
		Compatibility before = (subject == null) ? this.compatibility : this.subjectCompatibility.get(subject);
		set(subject, level);
		try {
			save();
		}
		catch (RuntimeException ex) {
			set(subject, before);
			throw ex;
		}
	}

	private void set(String subject, Compatibility level) {
		if (subject == null) {
			this.compatibility = level;
		}
		else if (level == null) {
			this.subjectCompatibility.remove(subject);
		}
		else {
			this.subjectCompatibility.put(subject, level);
		}
	}

	/**
	 * Return the texts of a schema's references, transitively, by the name each is
	 * imported by; those it imports come before it.
	 */
	Map<String, String> resolve(List<SchemaReference> references) {
		Map<String, String> texts = new LinkedHashMap<>();
		resolve(references, texts, 0);
		return texts;
	}

	private void resolve(List<SchemaReference> references, Map<String, String> texts, int depth) {
		if (depth >= MAX_REFERENCE_DEPTH) {
			throw new Refusal(422, 42201, "References nest deeper than " + MAX_REFERENCE_DEPTH);
		}
		for (SchemaReference reference : references) {
			if (texts.containsKey(reference.name())) {
				continue;
			}
			Version version;
			try {
				version = version(reference.subject(), Integer.toString(reference.version()));
			}
			catch (Refusal ex) {
				throw new Refusal(422, 42201, "Reference " + reference.name() + " (" + reference.subject()
						+ " version " + reference.version() + "): " + ex.getMessage());
			}
			RegistrySchema stored = this.schemas.get(version.id());
			resolve(stored.references(), texts, depth + 1);
			texts.put(reference.name(), stored.text());
			if (texts.size() > MAX_REFERENCES) {
				throw new Refusal(422, 42201, "More than " + MAX_REFERENCES + " references");
			}
		}
	}

	private List<String> problems(String subject, List<Version> versions, RegistrySchema schema,
			Map<String, String> references) {
		Compatibility level = compatibility(subject);
		if (level == Compatibility.NONE || versions.isEmpty()) {
			return List.of();
		}
		List<Version> earlier = level.transitive() ? versions : List.of(versions.get(versions.size() - 1));
		List<String> problems = new ArrayList<>();
		for (Version version : earlier) {
			RegistrySchema other = this.schemas.get(version.id());
			Map<String, String> otherReferences = resolve(other.references());
			try {
				if (level.backward()) {
					SchemaRules.problems(schema, references, other, otherReferences)
						.forEach((problem) -> problems.add("reading version " + version.version() + ": " + problem));
				}
				if (level.forward()) {
					SchemaRules.problems(other, otherReferences, schema, references)
						.forEach((problem) -> problems.add("read by version " + version.version() + ": " + problem));
				}
			}
			catch (IllegalArgumentException ex) {
				problems.add("version " + version.version() + ": " + ex.getMessage());
			}
		}
		return problems;
	}

	// A request without a data contract matches a version with any, as Confluent's registry
	// matches it; a request with one matches only a version of the same.
	private boolean matches(RegistrySchema stored, RegistrySchema requested) {
		return same(stored, requested)
				&& (requested.metadata() == null || requested.metadata().equals(stored.metadata()))
				&& (requested.ruleSet() == null || requested.ruleSet().equals(stored.ruleSet()));
	}

	// A new version registered without a data contract keeps its subject's, as Confluent's
	// registry does: a writer that knows nothing of rules cannot drop them.
	private RegistrySchema inheritContract(RegistrySchema requested, List<Version> versions) {
		if (versions.isEmpty() || (requested.metadata() != null || requested.ruleSet() != null)) {
			return requested;
		}
		RegistrySchema latest = this.schemas.get(versions.get(versions.size() - 1).id());
		return new RegistrySchema(requested.type(), requested.text(), requested.references(), latest.metadata(),
				latest.ruleSet());
	}

	private boolean same(RegistrySchema a, RegistrySchema b) {
		if (!a.references().equals(b.references()) || !a.type().equals(b.type())) {
			return false;
		}
		if (a.text().equals(b.text())) {
			return true;
		}
		Map<String, String> references;
		try {
			references = resolve(a.references());
		}
		catch (Refusal ex) {
			// Broken references (kept by an unvalidated registry): only equal texts are the same.
			return false;
		}
		return SchemaRules.same(a, b, references);
	}

	private void save() {
		if (this.closed) {
			throw new Refusal(503, 50003, "The registry is closing");
		}
		if (this.file != null) {
			this.file.write(new SchemaFile.Contents(this.nextId, this.compatibility, this.subjects,
					this.subjectCompatibility, this.schemas));
		}
	}

}
