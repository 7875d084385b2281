package dev.lockstep.registry.server;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.server.SchemaStore.Refusal;

/**
 * A Confluent-API schema registry inside the JVM, for development and tests: Avro, JSON
 * Schema and Protobuf schemas with references, ids shared across subjects, compatibility
 * levels per subject checked on registration ({@link Compatibility#BACKWARD} by default),
 * on a 127.0.0.1 port only. With a data directory its schemas outlive the process (one
 * JSON file, rewritten after each change; the directory is locked against a second
 * process); without one they live in memory. It answers the endpoints Lockstep's client
 * and Confluent's serializers use (configuration, schemas by id and GUID, subjects and
 * their versions, look-up and registration), with the registry's status codes and error
 * bodies. A change is answered only once it is in the file. Thread-safe.
 */
public final class EmbeddedSchemaRegistry implements AutoCloseable {

	private static final String MEDIA_TYPE = "application/vnd.schemaregistry.v1+json";

	private final ObjectMapper json = new ObjectMapper();

	private final SchemaStore store;

	private final RegistryRestApi api;

	private final String pathPrefix;

	private final RequestInterceptor interceptor;

	private final SSLContext tls;

	private final boolean clientCertificateRequired;

	private final DataDirectoryLock lock;

	private final ExecutorService executor = Executors.newCachedThreadPool((runnable) -> {
		Thread thread = new Thread(runnable, "lockstep-schema-registry");
		thread.setDaemon(true);
		return thread;
	});

	private HttpServer server;

	private int port;

	private EmbeddedSchemaRegistry(Builder builder, DataDirectoryLock lock) {
		this.store = new SchemaStore(builder.dataDirectory, builder.compatibility, builder.validateSchemas);
		this.api = new RegistryRestApi(this.store, this.json);
		this.pathPrefix = builder.pathPrefix;
		this.interceptor = builder.interceptor;
		this.tls = builder.tls;
		this.clientCertificateRequired = builder.clientCertificateRequired;
		this.lock = lock;
	}

	/**
	 * Return a builder.
	 * @return a builder of an in-memory registry on an ephemeral port, BACKWARD by default
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return the base URL clients use, prefix included.
	 * @return the URL, such as {@code http://127.0.0.1:40123}, or {@code https://...} when
	 * serving TLS
	 */
	public String url() {
		return ((this.tls != null) ? "https" : "http") + "://127.0.0.1:" + this.port + this.pathPrefix;
	}

	/**
	 * Stop answering: connections are refused until {@link #restart()}. Schemas are kept.
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
		stop();
		// No change may reach the file once the directory is released.
		synchronized (this.store) {
			this.store.close();
		}
		this.executor.shutdownNow();
		if (this.lock != null) {
			this.lock.close();
		}
	}

	/**
	 * Register a schema directly, as an operator would: with the subject's compatibility
	 * check.
	 * @param subject the subject
	 * @param schema the schema
	 * @return its id
	 * @throws IllegalArgumentException when the schema is invalid or incompatible
	 */
	public long register(String subject, RegistrySchema schema) {
		synchronized (this.store) {
			try {
				return this.store.register(subject, schema);
			}
			catch (Refusal ex) {
				throw new IllegalArgumentException(ex.getMessage(), ex);
			}
		}
	}

	/**
	 * Return the GUID of a schema, as {@code /schemas/ids/{id}} answers it: a fingerprint
	 * of its type, text, references, metadata and rule set.
	 * @param id the schema's id
	 * @return its GUID
	 * @throws IllegalArgumentException when the registry has no such schema
	 */
	public UUID guid(long id) {
		synchronized (this.store) {
			try {
				return SchemaStore.guid(this.store.schema(id));
			}
			catch (Refusal ex) {
				throw new IllegalArgumentException(ex.getMessage(), ex);
			}
		}
	}

	/**
	 * Set a subject's compatibility level.
	 * @param subject the subject, or {@code null} for the registry's default
	 * @param compatibility the level
	 */
	public void compatibility(String subject, Compatibility compatibility) {
		synchronized (this.store) {
			this.store.compatibility(subject, compatibility);
		}
	}

	/**
	 * Answer a request as the registry does, without the interceptor: for an
	 * {@link RequestInterceptor} that answers normally after all (after a delay, say).
	 * @param exchange the request
	 * @throws IOException when answering fails
	 */
	public void answer(HttpExchange exchange) throws IOException {
		String rawPath = exchange.getRequestURI().getRawPath();
		if (!rawPath.startsWith(this.pathPrefix)) {
			error(exchange, 404, 404, "HTTP 404 Not Found");
			return;
		}
		String[] parts = rawPath.substring(this.pathPrefix.length()).split("/", -1);
		try {
			JsonNode body = this.api.route(exchange.getRequestMethod(), parts, exchange);
			if (body == null) {
				error(exchange, 404, 404, "HTTP 404 Not Found");
			}
			else {
				respond(exchange, 200, Map.of("Content-Type", MEDIA_TYPE), this.json.writeValueAsBytes(body));
			}
		}
		catch (Refusal ex) {
			error(exchange, ex.status(), ex.errorCode(), ex.getMessage());
		}
		catch (RuntimeException ex) {
			error(exchange, 500, 50001, "Error in the backend data store: " + ex.getMessage());
		}
	}

	/**
	 * Answer a request with a status and a registry error body.
	 * @param exchange the request
	 * @param status the HTTP status
	 * @param errorCode the registry's error code
	 * @param message the message
	 * @throws IOException when answering fails
	 */
	public void error(HttpExchange exchange, int status, int errorCode, String message) throws IOException {
		ObjectNode body = this.json.createObjectNode().put("error_code", errorCode).put("message", message);
		respond(exchange, status, Map.of("Content-Type", MEDIA_TYPE), this.json.writeValueAsBytes(body));
	}

	/**
	 * Answer a request with exactly this status, headers and body.
	 * @param exchange the request
	 * @param status the HTTP status
	 * @param headers the response headers
	 * @param body the body
	 * @throws IOException when answering fails
	 */
	public static void respond(HttpExchange exchange, int status, Map<String, String> headers, byte[] body)
			throws IOException {
		headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
		exchange.sendResponseHeaders(status, (body.length == 0) ? -1 : body.length);
		if (body.length > 0) {
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		}
	}

	private void listen(int port) {
		try {
			InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
			if (this.tls != null) {
				HttpsServer https = HttpsServer.create(address, 50);
				https.setHttpsConfigurator(new ClientAuthConfigurator(this.tls, this.clientCertificateRequired));
				this.server = https;
			}
			else {
				this.server = HttpServer.create(address, 50);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the schema registry on port " + port, ex);
		}
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::handle);
		this.server.start();
		this.port = this.server.getAddress().getPort();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			if (this.interceptor != null) {
				String path = exchange.getRequestURI().getRawPath();
				if (path.startsWith(this.pathPrefix)) {
					path = path.substring(this.pathPrefix.length());
				}
				String request = exchange.getRequestMethod() + " " + RegistryRestApi.decode(path);
				if (this.interceptor.intercept(exchange, request, this)) {
					return;
				}
			}
			answer(exchange);
		}
		catch (IllegalArgumentException ex) {
			// A path with a malformed escape.
			error(exchange, 404, 404, "HTTP 404 Not Found");
		}
	}

	/** TLS with the context's key, asking for a client certificate when required. */
	private static final class ClientAuthConfigurator extends HttpsConfigurator {

		private final boolean clientCertificateRequired;

		ClientAuthConfigurator(SSLContext context, boolean clientCertificateRequired) {
			super(context);
			this.clientCertificateRequired = clientCertificateRequired;
		}

		@Override
		public void configure(HttpsParameters parameters) {
			SSLParameters ssl = getSSLContext().getDefaultSSLParameters();
			ssl.setNeedClientAuth(this.clientCertificateRequired);
			parameters.setSSLParameters(ssl);
		}

	}

	/**
	 * Builds and starts an {@link EmbeddedSchemaRegistry}.
	 */
	public static final class Builder {

		private int port;

		private String pathPrefix = "";

		private Path dataDirectory;

		private Compatibility compatibility = Compatibility.BACKWARD;

		private RequestInterceptor interceptor;

		private boolean validateSchemas = true;

		private SSLContext tls;

		private boolean clientCertificateRequired;

		private Builder() {
		}

		/**
		 * Listen on a port of 127.0.0.1.
		 * @param port the port; 0 (the default) for an ephemeral one
		 * @return this builder
		 */
		public Builder port(int port) {
			this.port = port;
			return this;
		}

		/**
		 * Serve below a path prefix.
		 * @param pathPrefix the prefix, such as {@code /registry}; empty (the default) for none
		 * @return this builder
		 */
		public Builder pathPrefix(String pathPrefix) {
			this.pathPrefix = pathPrefix;
			return this;
		}

		/**
		 * Keep the schemas in a directory, locked against other processes while running.
		 * @param dataDirectory the directory, created when missing; {@code null} (the
		 * default) for memory only
		 * @return this builder
		 */
		public Builder dataDirectory(Path dataDirectory) {
			this.dataDirectory = (dataDirectory != null) ? dataDirectory.toAbsolutePath().normalize() : null;
			return this;
		}

		/**
		 * Set the default compatibility level of subjects (until one is stored).
		 * @param compatibility the level; BACKWARD by default
		 * @return this builder
		 */
		public Builder compatibility(Compatibility compatibility) {
			this.compatibility = compatibility;
			return this;
		}

		/**
		 * See each request first, and answer it instead.
		 * @param interceptor the interceptor
		 * @return this builder
		 */
		public Builder interceptor(RequestInterceptor interceptor) {
			this.interceptor = interceptor;
			return this;
		}

		/**
		 * Whether a schema must parse and pass the compatibility check to be registered
		 * (the default). A test of what readers do with schemas they cannot use turns it
		 * off: texts are then kept as given, references unchecked.
		 * @param validateSchemas whether to parse schemas on registration
		 * @return this builder
		 */
		public Builder validateSchemas(boolean validateSchemas) {
			this.validateSchemas = validateSchemas;
			return this;
		}

		/**
		 * Serve HTTPS instead of HTTP.
		 * @param context the server's TLS context: its key manager presents the registry's
		 * certificate, its trust manager verifies client certificates
		 * @param clientCertificateRequired whether a client without a certificate the
		 * context trusts is refused (mutual TLS)
		 * @return this builder
		 */
		public Builder tls(SSLContext context, boolean clientCertificateRequired) {
			this.tls = context;
			this.clientCertificateRequired = clientCertificateRequired;
			return this;
		}

		/**
		 * Start the registry.
		 * @return the running registry
		 * @throws IllegalStateException when another process uses the data directory
		 * @throws UncheckedIOException when the port or the directory cannot be used
		 */
		public EmbeddedSchemaRegistry start() {
			DataDirectoryLock lock = (this.dataDirectory != null) ? DataDirectoryLock.acquire(this.dataDirectory) : null;
			try {
				EmbeddedSchemaRegistry registry = new EmbeddedSchemaRegistry(this, lock);
				registry.listen(this.port);
				return registry;
			}
			catch (RuntimeException ex) {
				if (lock != null) {
					lock.close();
				}
				throw ex;
			}
		}

	}

}
