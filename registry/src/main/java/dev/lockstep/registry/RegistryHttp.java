package dev.lockstep.registry;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The registry's HTTP transport: base-URL failover, bounded jittered retries of
 * retryable failures, one deadline per request covering connect, headers and body, a
 * response-size limit, no redirects. Thread-safe; holds no lock during I/O.
 */
final class RegistryHttp {

	static final String MEDIA_TYPE = "application/vnd.schemaregistry.v1+json";

	private final List<URI> baseUrls;

	private final HttpClient client;

	private final String authorization;

	private final Duration timeout;

	private final int maxResponseBytes;

	private final int retries;

	private final Duration initialBackoff;

	private final Duration maxBackoff;

	private final ObjectMapper json;

	// Where the last successful request went: failover starts there.
	private volatile int preferred;

	RegistryHttp(List<URI> baseUrls, SSLContext sslContext, String authorization, Duration timeout,
			int maxResponseBytes, int retries, Duration initialBackoff, Duration maxBackoff, ObjectMapper json) {
		this.baseUrls = List.copyOf(baseUrls);
		HttpClient.Builder builder = HttpClient.newBuilder()
			.followRedirects(HttpClient.Redirect.NEVER)
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(timeout);
		if (sslContext != null) {
			builder.sslContext(sslContext);
		}
		this.client = builder.build();
		this.authorization = authorization;
		this.timeout = timeout;
		this.maxResponseBytes = maxResponseBytes;
		this.retries = retries;
		this.initialBackoff = initialBackoff;
		this.maxBackoff = maxBackoff;
		this.json = json;
	}

	/**
	 * Send a request, failing over across base URLs and retrying retryable failures.
	 * @param method GET or POST
	 * @param path the path below the base URL, already encoded, starting with '/'
	 * @param body the JSON body, or {@code null}
	 * @return the parsed JSON of a 2xx response
	 */
	JsonNode send(String method, String path, JsonNode body) {
		RegistryException last = null;
		for (int attempt = 0; attempt <= this.retries; attempt++) {
			if (attempt > 0) {
				sleep(backoff(attempt));
			}
			int start = this.preferred;
			for (int i = 0; i < this.baseUrls.size(); i++) {
				int index = (start + i) % this.baseUrls.size();
				try {
					JsonNode result = sendOnce(this.baseUrls.get(index), method, path, body);
					this.preferred = index;
					return result;
				}
				catch (RegistryException ex) {
					if (!ex.isRetryable()) {
						throw ex;
					}
					last = ex;
				}
			}
		}
		throw last;
	}

	private JsonNode sendOnce(URI baseUrl, String method, String path, JsonNode body) {
		URI uri = URI.create(baseUrl + path);
		HttpRequest.Builder request = HttpRequest.newBuilder(uri)
			.timeout(this.timeout)
			.header("Accept", MEDIA_TYPE + ", application/json");
		if (this.authorization != null) {
			request.header("Authorization", this.authorization);
		}
		if (body != null) {
			request.header("Content-Type", MEDIA_TYPE)
				.method(method, HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
		}
		else {
			request.method(method, HttpRequest.BodyPublishers.noBody());
		}
		String target = method + " " + uri;
		HttpResponse<byte[]> response = exchange(request.build(), target);
		int status = response.statusCode();
		if (status >= 200 && status < 300) {
			return parse(response.body(), status, target);
		}
		if (status >= 300 && status < 400) {
			throw new RegistryException(target + " answered " + status + " redirecting to "
					+ response.headers().firstValue("Location").orElse("(no Location)") + "; redirects are not followed",
					status, 0, false, null);
		}
		ErrorBody error = errorBody(response.body());
		throw new RegistryException(target + " failed with HTTP " + status + error.describe(), status, error.code(),
				RegistryException.isRetryableStatus(status), null);
	}

	private HttpResponse<byte[]> exchange(HttpRequest request, String target) {
		CompletableFuture<HttpResponse<byte[]>> future = this.client.sendAsync(request,
				BoundedBodySubscriber.handler(this.maxResponseBytes));
		try {
			// One deadline for connect, headers and body: a slow-dripping body cannot stall us.
			return future.get(this.timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			future.cancel(true);
			throw new RegistryException(target + " timed out after " + this.timeout, 0, 0, true, ex);
		}
		catch (InterruptedException ex) {
			future.cancel(true);
			Thread.currentThread().interrupt();
			throw new RegistryException(target + " interrupted", 0, 0, false, ex);
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof BoundedBodySubscriber.ResponseTooLargeException) {
				throw new RegistryException(target + ": " + cause.getMessage(), 0, 0, false, cause);
			}
			if (cause instanceof SSLException) {
				throw new RegistryException(target + " TLS failure: " + cause.getMessage(), 0, 0, false, cause);
			}
			if (cause instanceof HttpTimeoutException) {
				throw new RegistryException(target + " timed out after " + this.timeout, 0, 0, true, cause);
			}
			if (cause instanceof IOException) {
				throw new RegistryException(target + " I/O failure: " + cause, 0, 0, true, cause);
			}
			throw new RegistryException(target + " failed: " + cause, 0, 0, false, cause);
		}
	}

	private JsonNode parse(byte[] body, int status, String target) {
		try {
			JsonNode node = this.json.readTree(body);
			if (node == null || node.isMissingNode()) {
				throw new RegistryException(target + " returned an empty body", status, 0, false, null);
			}
			return node;
		}
		catch (IOException ex) {
			throw new RegistryException(target + " returned invalid JSON: " + ex.getMessage(), status, 0, false,
					ex);
		}
	}

	private ErrorBody errorBody(byte[] body) {
		try {
			JsonNode node = this.json.readTree(body);
			if (node != null && node.isObject()) {
				JsonNode code = node.get("error_code");
				JsonNode message = node.get("message");
				return new ErrorBody((code != null && code.canConvertToInt()) ? code.intValue() : 0,
						(message != null && message.isTextual()) ? Optional.of(message.textValue()) : Optional.empty());
			}
		}
		catch (IOException ex) {
			// Not a registry error body; the status says enough.
		}
		return new ErrorBody(0, Optional.empty());
	}

	/**
	 * Return the longest {@link #send} can take: every attempt tries every base URL, each
	 * bounded by the timeout, and the back-offs between attempts at their ceilings.
	 * @return the worst-case duration of one operation
	 */
	Duration longestWait() {
		Duration wait = this.timeout.multipliedBy((this.retries + 1L) * this.baseUrls.size());
		for (int attempt = 1; attempt <= this.retries; attempt++) {
			wait = wait.plusMillis(backoffCeiling(attempt));
		}
		return wait;
	}

	private Duration backoff(int attempt) {
		long ceiling = backoffCeiling(attempt);
		// Jitter between half and all of the ceiling, so that clients do not retry in step.
		return Duration.ofMillis(ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1));
	}

	private long backoffCeiling(int attempt) {
		return Math.min(this.maxBackoff.toMillis(), this.initialBackoff.toMillis() << Math.min(attempt - 1, 20));
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RegistryException("Interrupted while backing off", 0, 0, false, ex);
		}
	}

	private record ErrorBody(int code, Optional<String> message) {

		String describe() {
			return ((this.code != 0) ? " (error_code " + this.code + ")" : "")
					+ this.message.map((text) -> ": " + abbreviate(text)).orElse("");
		}

		private static String abbreviate(String text) {
			return (text.length() > 500) ? text.substring(0, 500) + "..." : text;
		}

	}

}
