package dev.lockstep.e2e;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.yaml.snakeyaml.Yaml;

/**
 * The Kubernetes objects of a directory of manifests and its subdirectories ({@code *.yaml},
 * several documents per file), read as plain maps, with the few look-ups the deployment
 * checks need.
 */
final class KubernetesManifests {

	private final List<Map<String, Object>> objects;

	private KubernetesManifests(List<Map<String, Object>> objects) {
		this.objects = objects;
	}

	static KubernetesManifests read(Path directory) {
		List<Map<String, Object>> objects = new ArrayList<>();
		try (Stream<Path> files = Files.walk(directory)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".yaml")).sorted().toList()) {
				try (Reader reader = Files.newBufferedReader(file)) {
					for (Object document : new Yaml().loadAll(reader)) {
						if (document != null) {
							objects.add(map(document));
						}
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new KubernetesManifests(objects);
	}

	/** The one object of a kind (and, for a ConfigMap, a name) in the manifests. */
	Map<String, Object> only(String kind, String name) {
		List<Map<String, Object>> found = this.objects.stream()
			.filter((object) -> kind.equals(object.get("kind")))
			.filter((object) -> name == null || name.equals(at(object, "metadata", "name")))
			.toList();
		if (found.size() != 1) {
			throw new AssertionError("Expected one " + kind + ((name != null) ? " " + name : "")
					+ " in the manifests, found " + found.size());
		}
		return found.get(0);
	}

	Map<String, Object> only(String kind) {
		return only(kind, null);
	}

	/**
	 * The value at a path of keys; a number picks a list's element.
	 * @throws AssertionError when the path is not there
	 */
	static Object at(Object node, Object... path) {
		Object current = node;
		for (Object key : path) {
			if (key instanceof Integer index && current instanceof List<?> list && index < list.size()) {
				current = list.get(index);
			}
			else if (current instanceof Map<?, ?> map && map.containsKey(key)) {
				current = map.get(key);
			}
			else {
				throw new AssertionError("No " + key + " in " + current);
			}
		}
		return current;
	}

	static String text(Object node, Object... path) {
		return String.valueOf(at(node, path));
	}

	@SuppressWarnings("unchecked")
	static Map<String, Object> map(Object node, Object... path) {
		Object value = at(node, path);
		if (!(value instanceof Map)) {
			throw new AssertionError("Not a mapping: " + value);
		}
		return (Map<String, Object>) value;
	}

	/** A list of mappings under a key, empty when the key is absent. */
	@SuppressWarnings("unchecked")
	static List<Map<String, Object>> list(Map<String, Object> node, String key) {
		Object value = node.get(key);
		if (value == null) {
			return List.of();
		}
		if (!(value instanceof List)) {
			throw new AssertionError("Not a list: " + key + " = " + value);
		}
		return (List<Map<String, Object>>) value;
	}

	/** A YAML document held in a manifest's value (a ConfigMap's file), as plain maps and lists. */
	static Object yaml(String document) {
		return new Yaml().load(document);
	}

	/**
	 * A YAML document's leaf keys in Spring's dotted form ({@code lockstep.workers.normalizer.concurrency}),
	 * with their values.
	 */
	static Map<String, Object> leaves(String yaml) {
		Map<String, Object> leaves = new LinkedHashMap<>();
		flatten("", yaml(yaml), leaves);
		return leaves;
	}

	private static void flatten(String prefix, Object node, Map<String, Object> leaves) {
		if (node instanceof Map<?, ?> map) {
			map.forEach((key, value) -> flatten(prefix.isEmpty() ? key.toString() : prefix + "." + key, value, leaves));
		}
		else {
			leaves.put(prefix, node);
		}
	}

}
