package dev.lockstep.test.registry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests to a registry's REST API as any client sends them, for tests of what a
 * registry answers (rather than of Lockstep's client).
 */
public final class RegistryRequests {

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	private static final ObjectMapper JSON = new ObjectMapper();

	private final String url;

	/**
	 * Send requests to a registry.
	 * @param url its base URL
	 */
	public RegistryRequests(String url) {
		this.url = url;
	}

	/**
	 * GET a path, which must answer 200.
	 * @param path the path, such as {@code /schemas/ids/1?format=serialized}
	 * @return the answer's JSON
	 */
	public JsonNode get(String path) {
		return ok(send("GET", path, null));
	}

	/**
	 * POST a body to a path, which must answer 200.
	 * @param path the path
	 * @param body the JSON body
	 * @return the answer's JSON
	 */
	public JsonNode post(String path, String body) {
		return ok(send("POST", path, body));
	}

	/**
	 * Send a request, whatever it answers.
	 * @param method the method
	 * @param path the path
	 * @param body the JSON body, or {@code null}
	 * @return the response
	 */
	public HttpResponse<String> send(String method, String path, String body) {
		HttpRequest request = HttpRequest.newBuilder(URI.create(this.url + path))
			.header("Content-Type", "application/vnd.schemaregistry.v1+json")
			.method(method, (body != null) ? HttpRequest.BodyPublishers.ofString(body)
					: HttpRequest.BodyPublishers.noBody())
			.build();
		try {
			return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static JsonNode ok(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		try {
			return JSON.readTree(response.body());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
