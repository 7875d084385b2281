package dev.lockstep.registry.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.internal.DataContracts;
import dev.lockstep.registry.internal.SchemaJson;
import dev.lockstep.registry.server.SchemaStore.Version;

/**
 * The embedded registry's schemas on disk: one JSON file in its data directory, replaced
 * atomically (written beside it, then moved over it) on each save.
 */
final class SchemaFile {

	private static final String NAME = "schemas.json";

	private final ObjectMapper json = new ObjectMapper();

	private final Path directory;

	SchemaFile(Path directory) {
		this.directory = directory;
	}

	/**
	 * What the file holds: the next schema id, the global compatibility level, each
	 * subject's versions and level, the schemas by id.
	 */
	record Contents(long nextId, Compatibility compatibility, Map<String, List<Version>> subjects,
			Map<String, Compatibility> subjectCompatibility, Map<Long, RegistrySchema> schemas) {
	}

	void write(Contents contents) {
		ObjectNode root = this.json.createObjectNode();
		root.put("nextId", contents.nextId());
		root.put("compatibility", contents.compatibility().name());
		ObjectNode subjects = root.putObject("subjects");
		contents.subjects().forEach((subject, versions) -> {
			ObjectNode node = subjects.putObject(subject);
			Compatibility level = contents.subjectCompatibility().get(subject);
			if (level != null) {
				node.put("compatibility", level.name());
			}
			ArrayNode list = node.putArray("versions");
			versions.forEach((version) -> list.addObject().put("version", version.version()).put("id", version.id()));
		});
		contents.subjectCompatibility().forEach((subject, level) -> {
			if (!contents.subjects().containsKey(subject)) {
				subjects.putObject(subject).put("compatibility", level.name()).putArray("versions");
			}
		});
		ArrayNode schemas = root.putArray("schemas");
		contents.schemas().forEach((id, stored) -> SchemaJson.write(stored, schemas.addObject().put("id", id)));
		try {
			Files.createDirectories(this.directory);
			Path temporary = this.directory.resolve(NAME + ".tmp");
			this.json.writerWithDefaultPrettyPrinter().writeValue(temporary.toFile(), root);
			Files.move(temporary, this.directory.resolve(NAME), StandardCopyOption.REPLACE_EXISTING,
					StandardCopyOption.ATOMIC_MOVE);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not save the registry's schemas in " + this.directory, ex);
		}
	}

	/**
	 * Read the file, if there is one.
	 * @param compatibility the global level when the file names none
	 * @return what it holds, empty before the first save
	 */
	Optional<Contents> read(Compatibility compatibility) {
		Path file = this.directory.resolve(NAME);
		if (!Files.exists(file)) {
			return Optional.empty();
		}
		try {
			JsonNode root = this.json.readTree(file.toFile());
			Map<Long, RegistrySchema> schemas = new TreeMap<>();
			for (JsonNode node : root.path("schemas")) {
				schemas.put(node.path("id").asLong(), new RegistrySchema(
						node.path("schemaType").asText(RegistrySchema.AVRO), node.path("schema").asText(),
						SchemaJson.references(node.get("references")), DataContracts.metadata(node.get("metadata")),
						DataContracts.ruleSet(node.get("ruleSet"))));
			}
			Map<String, List<Version>> subjects = new TreeMap<>();
			Map<String, Compatibility> subjectCompatibility = new TreeMap<>();
			root.path("subjects").fields().forEachRemaining((entry) -> {
				if (entry.getValue().has("compatibility")) {
					subjectCompatibility.put(entry.getKey(),
							Compatibility.valueOf(entry.getValue().path("compatibility").asText()));
				}
				List<Version> versions = new ArrayList<>();
				for (JsonNode version : entry.getValue().path("versions")) {
					versions.add(new Version(version.path("version").asInt(), version.path("id").asLong()));
				}
				if (!versions.isEmpty()) {
					subjects.put(entry.getKey(), versions);
				}
			});
			return Optional.of(new Contents(root.path("nextId").asLong(1),
					Compatibility.valueOf(root.path("compatibility").asText(compatibility.name())), subjects,
					subjectCompatibility, schemas));
		}
		catch (IOException | RuntimeException ex) {
			throw new IllegalStateException("Could not read the registry's schemas from " + file + ": "
					+ ex.getMessage(), ex);
		}
	}

}
