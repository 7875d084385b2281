package dev.lockstep.test.registry;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * A Confluent-compatible schema registry for tests (Avro, and JSON and Protobuf schemas
 * kept as their text; no references, no compatibility checks), in memory behind the
 * JDK's HTTP server on 127.0.0.1. It answers the endpoints Lockstep uses with the
 * registry's status codes and error bodies (40401, 40403, 409, 42201, 50001), and can
 * misbehave on demand: fail, stall, redirect, answer with an arbitrary body or drop the
 * connection, for the next requests or until told otherwise.
 */
public final class TestSchemaRegistry implements AutoCloseable {

	private static final String MEDIA_TYPE = "application/vnd.schemaregistry.v1+json";

	private final ObjectMapper json = new ObjectMapper();

	private final String pathPrefix;

	private final Map<String, List<Registered>> subjects = new HashMap<>();

	private final Map<Long, Typed> schemasById = new HashMap<>();

	private final Set<String> incompatibleSubjects = ConcurrentHashMap.newKeySet();

	private final Deque<Fault> faults = new ConcurrentLinkedDeque<>();

	private final Map<String, AtomicInteger> requestCounts = new ConcurrentHashMap<>();

	private final ExecutorService executor = Executors.newCachedThreadPool((runnable) -> {
		Thread thread = new Thread(runnable, "test-schema-registry");
		thread.setDaemon(true);
		return thread;
	});

	private volatile CountDownLatch gate = new CountDownLatch(0);

	private volatile Headers lastRequestHeaders = new Headers();

	private long nextId = 1;

	private HttpServer server;

	private int port;

	private TestSchemaRegistry(String pathPrefix) {
		this.pathPrefix = pathPrefix;
	}

	/**
	 * Start a registry on an ephemeral 127.0.0.1 port.
	 * @return the running registry
	 */
	public static TestSchemaRegistry start() {
		return start("");
	}

	/**
	 * Start a registry that serves below a path prefix, such as {@code /registry}.
	 * @param pathPrefix the prefix, empty for none
	 * @return the running registry
	 */
	public static TestSchemaRegistry start(String pathPrefix) {
		TestSchemaRegistry registry = new TestSchemaRegistry(pathPrefix);
		registry.listen(0);
		return registry;
	}

	/**
	 * Return the base URL clients use, prefix included.
	 * @return the URL
	 */
	public String url() {
		return "http://127.0.0.1:" + this.port + this.pathPrefix;
	}

	/**
	 * Stop answering: connections are refused until {@link #restart()}. Registered
	 * schemas are kept.
	 */
	public synchronized void stop() {
		if (this.server != null) {
			this.server.stop(0);
			this.server = null;
		}
	}

	/**
	 * Answer again on the same port after {@link #stop()}.
	 */
	public synchronized void restart() {
		if (this.server == null) {
			listen(this.port);
		}
	}

	@Override
	public void close() {
		this.gate.countDown();
		stop();
		this.executor.shutdownNow();
	}

	/**
	 * Register a schema directly, as an operator would.
	 * @param subject the subject
	 * @param schema the schema
	 * @return its id
	 */
	public synchronized long register(String subject, Schema schema) {
		return registerText(subject, new Typed("AVRO", schema.toString()));
	}

	/**
	 * Register a schema of any type directly, as an operator would.
	 * @param subject the subject
	 * @param schemaType AVRO, JSON or PROTOBUF
	 * @param schema the schema text
	 * @return its id
	 */
	public synchronized long register(String subject, String schemaType, String schema) {
		return registerText(subject, new Typed(schemaType, schema));
	}

	/**
	 * Make registrations under a subject fail with 409, as an incompatible change does.
	 * @param subject the subject
	 */
	public void rejectAsIncompatible(String subject) {
		this.incompatibleSubjects.add(subject);
	}

	/**
	 * Answer the next {@code count} requests with a status and a registry error body.
	 * @param count how many requests
	 * @param status the HTTP status
	 * @param errorCode the registry error code in the body
	 */
	public void failNext(int count, int status, int errorCode) {
		String body = "{\"error_code\":" + errorCode + ",\"message\":\"injected failure\"}";
		addFault(count, (exchange) -> respond(exchange, status, Map.of(), body.getBytes(StandardCharsets.UTF_8)));
	}

	/**
	 * Answer the next {@code count} requests with exactly this status, headers and body.
	 * @param count how many requests
	 * @param status the HTTP status
	 * @param headers response headers
	 * @param body the body
	 */
	public void respondNext(int count, int status, Map<String, String> headers, byte[] body) {
		addFault(count, (exchange) -> respond(exchange, status, headers, body));
	}

	/**
	 * Close the connection of the next {@code count} requests without answering.
	 * @param count how many requests
	 */
	public void dropNext(int count) {
		addFault(count, HttpExchange::close);
	}

	/**
	 * Delay the next {@code count} requests before answering them normally.
	 * @param count how many requests
	 * @param delay the delay
	 */
	public void delayNext(int count, Duration delay) {
		addFault(count, (exchange) -> {
			try {
				Thread.sleep(delay.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			answer(exchange);
		});
	}

	/**
	 * Hold every request until {@link #release()}.
	 */
	public void hold() {
		this.gate = new CountDownLatch(1);
	}

	/**
	 * Let held requests proceed.
	 */
	public void release() {
		this.gate.countDown();
	}

	/**
	 * Return how many requests arrived for a method and path, such as
	 * {@code GET /schemas/ids/1}.
	 * @param methodAndPath the method, a space, and the path below the prefix
	 * @return the count
	 */
	public int requestCount(String methodAndPath) {
		AtomicInteger count = this.requestCounts.get(methodAndPath);
		return (count != null) ? count.get() : 0;
	}

	/**
	 * Return a header of the last request, such as {@code Authorization}.
	 * @param name the header name
	 * @return the first value, or {@code null} when the request had none
	 */
	public String lastRequestHeader(String name) {
		return this.lastRequestHeaders.getFirst(name);
	}

	/**
	 * Return how many requests arrived in all.
	 * @return the count
	 */
	public int totalRequests() {
		return this.requestCounts.values().stream().mapToInt(AtomicInteger::get).sum();
	}

	private void listen(int port) {
		try {
			this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the test schema registry", ex);
		}
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::handle);
		this.server.start();
		this.port = this.server.getAddress().getPort();
	}

	private void addFault(int count, Fault fault) {
		for (int i = 0; i < count; i++) {
			this.faults.add(fault);
		}
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getRawPath();
			if (path.startsWith(this.pathPrefix)) {
				path = path.substring(this.pathPrefix.length());
			}
			this.lastRequestHeaders = exchange.getRequestHeaders();
			this.requestCounts.computeIfAbsent(exchange.getRequestMethod() + " " + decode(path),
					(key) -> new AtomicInteger())
				.incrementAndGet();
			awaitGate();
			Fault fault = this.faults.poll();
			if (fault != null) {
				fault.apply(exchange);
			}
			else {
				answer(exchange);
			}
		}
	}

	private void awaitGate() {
		try {
			this.gate.await(5, TimeUnit.MINUTES);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void answer(HttpExchange exchange) throws IOException {
		String method = exchange.getRequestMethod();
		String rawPath = exchange.getRequestURI().getRawPath();
		if (!rawPath.startsWith(this.pathPrefix)) {
			error(exchange, 404, 404, "Not found");
			return;
		}
		String[] parts = rawPath.substring(this.pathPrefix.length()).split("/");
		// parts[0] is empty: paths start with '/'
		if (method.equals("GET") && parts.length == 2 && parts[1].equals("config")) {
			ok(exchange, this.json.createObjectNode().put("compatibilityLevel", "BACKWARD"));
		}
		else if (method.equals("GET") && parts.length == 4 && parts[1].equals("schemas") && parts[2].equals("ids")) {
			schemaById(exchange, parts[3]);
		}
		else if (method.equals("POST") && parts.length == 3 && parts[1].equals("subjects")) {
			lookup(exchange, decode(parts[2]), readSchema(exchange));
		}
		else if (method.equals("POST") && parts.length == 4 && parts[1].equals("subjects")
				&& parts[3].equals("versions")) {
			register(exchange, decode(parts[2]), readSchema(exchange));
		}
		else if (method.equals("GET") && parts.length == 5 && parts[1].equals("subjects")
				&& parts[3].equals("versions")) {
			version(exchange, decode(parts[2]), parts[4]);
		}
		else {
			error(exchange, 404, 404, "HTTP 404 Not Found");
		}
	}

	private synchronized void schemaById(HttpExchange exchange, String idText) throws IOException {
		Typed schema = parseId(idText).map(this.schemasById::get).orElse(null);
		if (schema == null) {
			error(exchange, 404, 40403, "Schema " + idText + " not found");
			return;
		}
		ok(exchange, schema.into(this.json.createObjectNode()));
	}

	private synchronized void lookup(HttpExchange exchange, String subject, Optional<Typed> schema) throws IOException {
		if (schema.isEmpty()) {
			error(exchange, 422, 42201, "Invalid schema");
			return;
		}
		List<Registered> versions = this.subjects.get(subject);
		if (versions == null) {
			error(exchange, 404, 40401, "Subject '" + subject + "' not found.");
			return;
		}
		for (Registered registered : versions) {
			if (registered.schema().same(schema.get())) {
				ok(exchange, versionBody(subject, registered));
				return;
			}
		}
		error(exchange, 404, 40403, "Schema not found");
	}

	private synchronized void register(HttpExchange exchange, String subject, Optional<Typed> schema)
			throws IOException {
		if (schema.isEmpty()) {
			error(exchange, 422, 42201, "Either the input schema or one of its references is invalid");
			return;
		}
		if (this.incompatibleSubjects.contains(subject)) {
			error(exchange, 409, 409, "Schema being registered is incompatible with an earlier schema");
			return;
		}
		long id = registerText(subject, schema.get());
		ok(exchange, this.json.createObjectNode().put("id", id));
	}

	private synchronized void version(HttpExchange exchange, String subject, String version) throws IOException {
		List<Registered> versions = this.subjects.get(subject);
		if (versions == null || versions.isEmpty()) {
			error(exchange, 404, 40401, "Subject '" + subject + "' not found.");
			return;
		}
		Registered found = null;
		if (version.equals("latest")) {
			found = versions.get(versions.size() - 1);
		}
		else {
			for (Registered registered : versions) {
				if (Integer.toString(registered.version()).equals(version)) {
					found = registered;
				}
			}
		}
		if (found == null) {
			error(exchange, 404, 40402, "Version " + version + " not found.");
			return;
		}
		ok(exchange, versionBody(subject, found));
	}

	private long registerText(String subject, Typed schemaText) {
		schemaText.check();
		List<Registered> versions = this.subjects.computeIfAbsent(subject, (key) -> new ArrayList<>());
		for (Registered registered : versions) {
			if (registered.schema().same(schemaText)) {
				return registered.id();
			}
		}
		long id = this.schemasById.entrySet()
			.stream()
			.filter((entry) -> entry.getValue().same(schemaText))
			.map(Map.Entry::getKey)
			.findFirst()
			.orElseGet(() -> {
				long newId = this.nextId++;
				this.schemasById.put(newId, schemaText);
				return newId;
			});
		versions.add(new Registered(versions.size() + 1, id, schemaText));
		return id;
	}

	private ObjectNode versionBody(String subject, Registered registered) {
		return registered.schema()
			.into(this.json.createObjectNode()
				.put("subject", subject)
				.put("version", registered.version())
				.put("id", registered.id()));
	}

	private Optional<Typed> readSchema(HttpExchange exchange) throws IOException {
		try (InputStream in = exchange.getRequestBody()) {
			JsonNode body = this.json.readTree(in);
			JsonNode schema = (body != null) ? body.get("schema") : null;
			JsonNode type = (body != null) ? body.get("schemaType") : null;
			if (schema == null || !schema.isTextual() || (type != null && !type.isTextual())) {
				return Optional.empty();
			}
			Typed typed = new Typed((type != null) ? type.textValue() : "AVRO", schema.textValue());
			typed.check();
			return Optional.of(typed);
		}
		catch (IllegalArgumentException | IOException ex) {
			return Optional.empty();
		}
	}

	private void ok(HttpExchange exchange, JsonNode body) throws IOException {
		respond(exchange, 200, Map.of("Content-Type", MEDIA_TYPE), this.json.writeValueAsBytes(body));
	}

	private void error(HttpExchange exchange, int status, int errorCode, String message) throws IOException {
		ObjectNode body = this.json.createObjectNode().put("error_code", errorCode).put("message", message);
		respond(exchange, status, Map.of("Content-Type", MEDIA_TYPE), this.json.writeValueAsBytes(body));
	}

	private static void respond(HttpExchange exchange, int status, Map<String, String> headers, byte[] body)
			throws IOException {
		headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
		exchange.sendResponseHeaders(status, (body.length == 0) ? -1 : body.length);
		if (body.length > 0) {
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		}
	}

	private static Optional<Long> parseId(String text) {
		try {
			return Optional.of(Long.parseLong(text));
		}
		catch (NumberFormatException ex) {
			return Optional.empty();
		}
	}

	private static String decode(String segment) {
		return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
	}

	private record Registered(int version, long id, Typed schema) {

	}

	/**
	 * A schema's type and text. Avro and JSON schemas are the same schema when they parse
	 * equal (as the registry normalizes them); Protobuf ones when their texts are.
	 */
	private record Typed(String type, String text) {

		private static final ObjectMapper JSON = new ObjectMapper();

		/** Refuse what the registry refuses (422): an unknown type or an unparsable schema. */
		void check() {
			parsed();
		}

		boolean same(Typed other) {
			return this.type.equals(other.type) && parsed().equals(other.parsed());
		}

		ObjectNode into(ObjectNode body) {
			body.put("schema", this.text);
			// The registry leaves out the default type, AVRO.
			if (!this.type.equals("AVRO")) {
				body.put("schemaType", this.type);
			}
			return body;
		}

		private Object parsed() {
			try {
				return switch (this.type) {
					case "AVRO" -> new Schema.Parser().parse(this.text);
					case "JSON" -> JSON.readTree(this.text);
					case "PROTOBUF" -> this.text;
					default -> throw new IllegalArgumentException("Unknown schema type " + this.type);
				};
			}
			catch (SchemaParseException | IOException ex) {
				throw new IllegalArgumentException("Invalid " + this.type + " schema", ex);
			}
		}

	}

	/**
	 * A misbehaviour applied to one request instead of the normal answer.
	 */
	@FunctionalInterface
	private interface Fault {

		void apply(HttpExchange exchange) throws IOException;

	}

}
