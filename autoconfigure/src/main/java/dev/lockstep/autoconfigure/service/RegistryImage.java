package dev.lockstep.autoconfigure.service;

import java.util.List;

/**
 * The schema registry images Lockstep connects to from Testcontainers and Docker Compose:
 * where each listens and where its Confluent-compatible API is.
 */
enum RegistryImage {

	/** Confluent's Schema Registry: the API at the root, port 8081. */
	CONFLUENT(List.of("confluentinc/cp-schema-registry"), 8081, ""),

	/** Apicurio Registry: its Confluent-compatible API under {@code /apis/ccompat/v7}, port 8080. */
	APICURIO(List.of("apicurio/apicurio-registry", "apicurio/apicurio-registry-mem"), 8080, "/apis/ccompat/v7");

	private final List<String> names;

	private final int port;

	private final String path;

	RegistryImage(List<String> names, int port, String path) {
		this.names = names;
		this.port = port;
		this.path = path;
	}

	/**
	 * Return the image names (without registry host or tag) this registry runs from.
	 * @return the names
	 */
	List<String> names() {
		return this.names;
	}

	/**
	 * Return the port the registry listens on inside its container.
	 * @return the port
	 */
	int port() {
		return this.port;
	}

	/**
	 * Return the base URL of the registry's Confluent-compatible API.
	 * @param host the host the container's port is published on
	 * @param publishedPort the published port of {@link #port()}
	 * @return the URL
	 */
	String url(String host, int publishedPort) {
		return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + publishedPort + this.path;
	}

}
