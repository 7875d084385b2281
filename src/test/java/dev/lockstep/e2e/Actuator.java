package dev.lockstep.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.lockstep.kraft.FreePorts;

/**
 * A sample worker process's actuator endpoints over HTTP on 127.0.0.1, read the way a
 * monitoring system or an operator reads them.
 */
final class Actuator {

	private static final ObjectMapper JSON = new ObjectMapper();

	// One label of a Prometheus series: name="value", the value's quotes escaped.
	private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final int port;

	private Actuator(int port) {
		this.port = port;
	}

	/** An actuator on a free port; pass {@link #args(String)} to the worker. */
	static Actuator onFreePort() {
		return new Actuator(FreePorts.next());
	}

	/**
	 * The worker's arguments that serve the actuator on this port.
	 * @param endpoints the endpoints to expose, such as {@code health,metrics,lockstep}
	 */
	List<String> args(String endpoints) {
		return List.of("--spring.main.web-application-type=servlet", "--server.port=" + this.port,
				"--server.address=127.0.0.1", "--management.endpoints.web.exposure.include=" + endpoints,
				"--management.endpoint.health.show-details=always");
	}

	/** The body of a GET, or an empty string while the worker does not answer. */
	String get(String path) {
		try {
			return this.http.send(request(path).timeout(Duration.ofSeconds(10)).build(),
					HttpResponse.BodyHandlers.ofString()).body();
		}
		catch (IOException ex) {
			return "";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "";
		}
	}

	/** The HTTP status of a GET, or 0 while the worker does not answer. */
	int statusCode(String path) {
		try {
			return this.http.send(request(path).timeout(Duration.ofSeconds(10)).build(),
					HttpResponse.BodyHandlers.discarding()).statusCode();
		}
		catch (IOException ex) {
			return 0;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return 0;
		}
	}

	/** The JSON body of a GET, or a missing node while the worker does not answer. */
	JsonNode json(String path) {
		String body = get(path);
		if (body.isEmpty()) {
			return MissingNode.getInstance();
		}
		try {
			return JSON.readTree(body);
		}
		catch (IOException ex) {
			return MissingNode.getInstance();
		}
	}

	/**
	 * The value of a counter from {@code /actuator/metrics}: 0 when no meter matches
	 * (404: a counter is registered at its first increment).
	 * @param name the meter name, such as {@code lockstep.worker.transactions}
	 * @param tag one tag as {@code key:value}
	 * @throws IllegalStateException when the worker does not answer
	 */
	double counter(String name, String tag) throws Exception {
		HttpResponse<String> response = this.http.send(
				request("/actuator/metrics/" + name + "?tag=" + tag).timeout(Duration.ofSeconds(10)).build(),
				HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() == 404) {
			return 0;
		}
		if (response.statusCode() != 200) {
			throw new IllegalStateException("GET metric " + name + " " + tag + ": HTTP " + response.statusCode());
		}
		for (JsonNode measurement : JSON.readTree(response.body()).path("measurements")) {
			if (measurement.path("statistic").asText().equals("COUNT")) {
				return measurement.path("value").asDouble();
			}
		}
		throw new IllegalStateException("No COUNT in metric " + name + ": " + response.body());
	}

	/**
	 * The series of one metric in a Prometheus scrape, each as its labels, read the way
	 * Prometheus reads them; none while the worker does not answer.
	 * @param path the scrape's path, such as {@code /actuator/prometheus}
	 * @param metric the metric's name, such as {@code lockstep_worker_lag}
	 */
	List<Map<String, String>> series(String path, String metric) {
		List<Map<String, String>> series = new ArrayList<>();
		Matcher line = Pattern.compile("(?m)^" + Pattern.quote(metric) + "\\{([^}]*)\\}").matcher(get(path));
		while (line.find()) {
			Map<String, String> labels = new LinkedHashMap<>();
			Matcher label = LABEL.matcher(line.group(1));
			while (label.find()) {
				labels.put(label.group(1), label.group(2));
			}
			series.add(labels);
		}
		return series;
	}

	/** POST a JSON body; the status code. */
	int post(String path, String body) throws Exception {
		return this.http
			.send(request(path).header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString())
			.statusCode();
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path));
	}

}
