package dev.lockstep.test.registry;

import java.io.IOException;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.server.EmbeddedSchemaRegistry;
import org.apache.avro.Schema;

/**
 * A schema registry for tests: Lockstep's {@link EmbeddedSchemaRegistry} (the development
 * registry) in memory on 127.0.0.1, with schemas kept as given (not parsed, not checked for
 * compatibility, though it reports BACKWARD), that can misbehave on demand: fail, stall,
 * answer with an arbitrary body or drop the connection, for the next requests or until
 * told otherwise, and stop and restart on the same port. It counts requests and remembers
 * the last one's headers.
 */
public final class TestSchemaRegistry implements AutoCloseable {

	private final Set<String> incompatibleSubjects = ConcurrentHashMap.newKeySet();

	private final Deque<Fault> faults = new ConcurrentLinkedDeque<>();

	private final Map<String, AtomicInteger> requestCounts = new ConcurrentHashMap<>();

	private final EmbeddedSchemaRegistry registry;

	private volatile CountDownLatch gate = new CountDownLatch(0);

	private volatile Headers lastRequestHeaders = new Headers();

	private volatile String lastRequestQuery;

	private TestSchemaRegistry(String pathPrefix) {
		this.registry = EmbeddedSchemaRegistry.builder()
			.pathPrefix(pathPrefix)
			.validateSchemas(false)
			.interceptor(this::intercept)
			.start();
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
		return new TestSchemaRegistry(pathPrefix);
	}

	/**
	 * Return the base URL clients use, prefix included.
	 * @return the URL
	 */
	public String url() {
		return this.registry.url();
	}

	/**
	 * Stop answering: connections are refused until {@link #restart()}. Registered
	 * schemas are kept.
	 */
	public void stop() {
		this.registry.stop();
	}

	/**
	 * Answer again on the same port after {@link #stop()}.
	 */
	public void restart() {
		this.registry.restart();
	}

	@Override
	public void close() {
		this.gate.countDown();
		this.registry.close();
	}

	/**
	 * Register a schema directly, as an operator would.
	 * @param subject the subject
	 * @param schema the schema
	 * @return its id
	 */
	public long register(String subject, Schema schema) {
		return register(subject, RegistrySchema.AVRO, schema.toString());
	}

	/**
	 * Register a schema of any type directly, as an operator would.
	 * @param subject the subject
	 * @param schemaType AVRO, JSON or PROTOBUF
	 * @param schema the schema text
	 * @return its id
	 */
	public long register(String subject, String schemaType, String schema) {
		return this.registry.register(subject, new RegistrySchema(schemaType, schema));
	}

	/**
	 * Register a schema as given, its data contract included, as an operator would.
	 * @param subject the subject
	 * @param schema the schema
	 * @return its id
	 */
	public long register(String subject, RegistrySchema schema) {
		return this.registry.register(subject, schema);
	}

	/**
	 * Return a schema's GUID, as Confluent Platform 8 writers put it in a header.
	 * @param id the schema's id
	 * @return its GUID
	 */
	public UUID guid(long id) {
		return this.registry.guid(id);
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
		addFault(count, (exchange) -> this.registry.error(exchange, status, errorCode, "injected failure"));
	}

	/**
	 * Answer the next {@code count} requests with exactly this status, headers and body.
	 * @param count how many requests
	 * @param status the HTTP status
	 * @param headers response headers
	 * @param body the body
	 */
	public void respondNext(int count, int status, Map<String, String> headers, byte[] body) {
		addFault(count, (exchange) -> EmbeddedSchemaRegistry.respond(exchange, status, headers, body));
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
			this.registry.answer(exchange);
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
	 * Return the query of the last request, such as {@code normalize=true}.
	 * @return the raw query, or {@code null} when the request had none
	 */
	public String lastRequestQuery() {
		return this.lastRequestQuery;
	}

	/**
	 * Return how many requests arrived in all.
	 * @return the count
	 */
	public int totalRequests() {
		return this.requestCounts.values().stream().mapToInt(AtomicInteger::get).sum();
	}

	private void addFault(int count, Fault fault) {
		for (int i = 0; i < count; i++) {
			this.faults.add(fault);
		}
	}

	private boolean intercept(HttpExchange exchange, String methodAndPath, EmbeddedSchemaRegistry registry)
			throws IOException {
		this.lastRequestHeaders = exchange.getRequestHeaders();
		this.lastRequestQuery = exchange.getRequestURI().getRawQuery();
		this.requestCounts.computeIfAbsent(methodAndPath, (key) -> new AtomicInteger()).incrementAndGet();
		awaitGate();
		Fault fault = this.faults.poll();
		if (fault != null) {
			fault.apply(exchange);
			return true;
		}
		String path = methodAndPath.substring(methodAndPath.indexOf(' ') + 1);
		if (methodAndPath.startsWith("POST /subjects/") && path.endsWith("/versions")
				&& this.incompatibleSubjects.contains(path.substring("/subjects/".length(),
						path.length() - "/versions".length()))) {
			exchange.getRequestBody().readAllBytes();
			registry.error(exchange, 409, 409, "Schema being registered is incompatible with an earlier schema");
			return true;
		}
		return false;
	}

	private void awaitGate() {
		try {
			this.gate.await(5, TimeUnit.MINUTES);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
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
