package dev.lockstep.registry;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.lockstep.registry.kafka.RegistrySerdeConfig;
import dev.lockstep.test.registry.TestSchemaRegistry;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

class RegistryClientTests {

	private static final Schema ORDER = SchemaBuilder.record("Order")
		.namespace("dev.lockstep.test")
		.fields()
		.requiredLong("id")
		.requiredString("status")
		.endRecord();

	private final TestSchemaRegistry registry = TestSchemaRegistry.start();

	private final List<AutoCloseable> others = new ArrayList<>();

	@AfterEach
	void stopRegistries() throws Exception {
		this.registry.close();
		for (AutoCloseable other : this.others) {
			other.close();
		}
	}

	private RegistryClient.Builder client() {
		return RegistryClient.builder(this.registry.url()).backoff(Duration.ofMillis(1), Duration.ofMillis(5));
	}

	private static Schema schema(String name) {
		return SchemaBuilder.record(name).fields().requiredLong("id").endRecord();
	}

	@Test
	void lookupFindsTheRegisteredIdWithoutCreatingAVersion() {
		long id = this.registry.register("orders-value", ORDER);
		RegistryClient client = client().build();
		assertThat(client.lookup("orders-value", ORDER)).isEqualTo(id);
		RegistryException notFound = catchRegistry(() -> client.lookup("orders-value", schema("Other")));
		assertThat(notFound.statusCode()).isEqualTo(404);
		assertThat(notFound.errorCode()).isEqualTo(40403);
		assertThat(this.registry.requestCount("POST /subjects/orders-value/versions")).isZero();
	}

	@Test
	void lookupOfAnUnknownSubjectFailsWith40401AndIsNotRetried() {
		RegistryException failure = catchRegistry(() -> client().build().lookup("missing-value", ORDER));
		assertThat(failure.statusCode()).isEqualTo(404);
		assertThat(failure.errorCode()).isEqualTo(40401);
		assertThat(failure.isRetryable()).isFalse();
		assertThat(this.registry.requestCount("POST /subjects/missing-value")).isEqualTo(1);
	}

	@Test
	void lookupsAreCachedBySchemaContentNotIdentity() {
		this.registry.register("orders-value", ORDER);
		RegistryClient client = client().build();
		Schema sameContent = new Schema.Parser().parse(ORDER.toString());
		assertThat(sameContent).isNotSameAs(ORDER);
		assertThat(client.lookup("orders-value", sameContent)).isEqualTo(client.lookup("orders-value", ORDER));
		assertThat(this.registry.requestCount("POST /subjects/orders-value")).isEqualTo(1);
	}

	@Test
	void registerReturnsTheIdAndIsNeverCached() {
		RegistryClient client = client().build();
		long id = client.register("orders-value", ORDER);
		assertThat(client.register("orders-value", ORDER)).isEqualTo(id);
		assertThat(this.registry.requestCount("POST /subjects/orders-value/versions")).isEqualTo(2);
		assertThat(client.schemaById(id)).isEqualTo(ORDER);
	}

	@Test
	void incompatibleRegistrationFailsWith409() {
		this.registry.rejectAsIncompatible("orders-value");
		RegistryException failure = catchRegistry(() -> client().build().register("orders-value", ORDER));
		assertThat(failure.statusCode()).isEqualTo(409);
		assertThat(failure.errorCode()).isEqualTo(409);
		assertThat(failure.isRetryable()).isFalse();
	}

	@Test
	void invalidSchemaFailsWith42201() {
		this.registry.failNext(1, 422, 42201);
		RegistryException failure = catchRegistry(() -> client().build().register("orders-value", ORDER));
		assertThat(failure.statusCode()).isEqualTo(422);
		assertThat(failure.errorCode()).isEqualTo(42201);
		assertThat(failure.getMessage()).contains("injected failure");
	}

	@Test
	void schemaByIdIsCachedUntilCleared() {
		long id = this.registry.register("orders-value", ORDER);
		RegistryClient client = client().build();
		assertThat(client.schemaById(id)).isEqualTo(ORDER);
		assertThat(client.schemaById(id)).isEqualTo(ORDER);
		assertThat(this.registry.requestCount("GET /schemas/ids/" + id)).isEqualTo(1);
		client.clearCaches();
		client.schemaById(id);
		assertThat(this.registry.requestCount("GET /schemas/ids/" + id)).isEqualTo(2);
	}

	@Test
	void unknownSchemaIdFailsWith40403AndIsNotCached() {
		RegistryClient client = client().build();
		assertThat(catchRegistry(() -> client.schemaById(99)).errorCode()).isEqualTo(40403);
		catchRegistry(() -> client.schemaById(99));
		assertThat(this.registry.requestCount("GET /schemas/ids/99")).isEqualTo(2);
	}

	@Test
	void fullCacheEvictsTheOldestEntry() {
		long first = this.registry.register("a-value", schema("A"));
		long second = this.registry.register("b-value", schema("B"));
		long third = this.registry.register("c-value", schema("C"));
		RegistryClient client = client().cacheCapacity(2).build();
		client.schemaById(first);
		client.schemaById(second);
		client.schemaById(third);
		client.schemaById(third);
		client.schemaById(second);
		assertThat(this.registry.requestCount("GET /schemas/ids/" + second)).isEqualTo(1);
		assertThat(this.registry.requestCount("GET /schemas/ids/" + third)).isEqualTo(1);
		client.schemaById(first);
		assertThat(this.registry.requestCount("GET /schemas/ids/" + first)).isEqualTo(2);
	}

	@Test
	void versionsCarrySubjectVersionIdAndSchemaAndAreNotCached() {
		long first = this.registry.register("orders-value", ORDER);
		Schema evolved = SchemaBuilder.record("Order")
			.namespace("dev.lockstep.test")
			.fields()
			.requiredLong("id")
			.requiredString("status")
			.optionalString("note")
			.endRecord();
		long second = this.registry.register("orders-value", evolved);
		RegistryClient client = client().build();
		assertThat(client.version("orders-value", 1)).isEqualTo(new SchemaVersion("orders-value", 1, first, ORDER));
		assertThat(client.latestVersion("orders-value"))
			.isEqualTo(new SchemaVersion("orders-value", 2, second, evolved));
		client.latestVersion("orders-value");
		assertThat(this.registry.requestCount("GET /subjects/orders-value/versions/latest")).isEqualTo(2);
		assertThat(catchRegistry(() -> client.version("orders-value", 3)).errorCode()).isEqualTo(40402);
	}

	@Test
	void serverErrorsAreRetriedWithBackoffUntilSuccess() {
		long id = this.registry.register("orders-value", ORDER);
		this.registry.failNext(2, 500, 50001);
		assertThat(client().build().schemaById(id)).isEqualTo(ORDER);
		assertThat(this.registry.requestCount("GET /schemas/ids/" + id)).isEqualTo(3);
	}

	@Test
	void retriesStopAfterThreeAttemptsInAll() {
		this.registry.failNext(5, 503, 50003);
		RegistryException failure = catchRegistry(() -> client().build().schemaById(1));
		assertThat(failure.statusCode()).isEqualTo(503);
		assertThat(failure.errorCode()).isEqualTo(50003);
		assertThat(failure.isRetryable()).isTrue();
		assertThat(this.registry.requestCount("GET /schemas/ids/1")).isEqualTo(3);
	}

	@Test
	void zeroRetriesMakesOneAttempt() {
		this.registry.failNext(5, 503, 50003);
		catchRegistry(() -> client().retries(0).build().schemaById(1));
		assertThat(this.registry.requestCount("GET /schemas/ids/1")).isEqualTo(1);
	}

	@Test
	void requestTimeoutAndTooManyRequestsAreRetriedButOtherClientErrorsAreNot() {
		long id = this.registry.register("orders-value", ORDER);
		this.registry.failNext(1, 408, 0);
		this.registry.failNext(1, 429, 42901);
		assertThat(client().build().schemaById(id)).isEqualTo(ORDER);
		this.registry.failNext(1, 401, 40101);
		RegistryException unauthorized = catchRegistry(() -> client().build().schemaById(id));
		assertThat(unauthorized.statusCode()).isEqualTo(401);
		assertThat(this.registry.requestCount("GET /schemas/ids/" + id)).isEqualTo(4);
	}

	@Test
	void normalizeSchemasAsksForNormalizingOnRegistrationAndLookUpAlike() {
		RegistryClient normalizing = RegistrySerdeConfig
			.of(Map.of("schema.registry.url", this.registry.url(), "normalize.schemas", true), false)
			.createClient();
		normalizing.register("orders-value", ORDER);
		assertThat(this.registry.lastRequestQuery()).isEqualTo("normalize=true");
		normalizing.lookup("orders-value", ORDER);
		assertThat(this.registry.lastRequestQuery()).isEqualTo("normalize=true");
		client().build().lookup("orders-value", ORDER);
		assertThat(this.registry.lastRequestQuery()).isNull();
	}

	@Test
	void droppedConnectionIsRetriedAsAnIoFailure() {
		long id = this.registry.register("orders-value", ORDER);
		this.registry.dropNext(1);
		assertThat(client().build().schemaById(id)).isEqualTo(ORDER);
		// The JDK client itself may resend an idempotent GET once on a dropped connection.
		this.registry.dropNext(100);
		RegistryException failure = catchRegistry(() -> client().build().schemaById(id));
		assertThat(failure.statusCode()).isZero();
		assertThat(failure.isRetryable()).isTrue();
	}

	@Test
	void slowResponseTimesOutWithStatusZero() {
		long id = this.registry.register("orders-value", ORDER);
		this.registry.delayNext(1, Duration.ofSeconds(3));
		RegistryException failure = catchRegistry(
				() -> client().timeout(Duration.ofMillis(300)).retries(0).build().schemaById(id));
		assertThat(failure.statusCode()).isZero();
		assertThat(failure.getMessage()).contains("timed out");
		assertThat(failure.isRetryable()).isTrue();
	}

	@Test
	void redirectsAreNotFollowed() {
		this.registry.respondNext(1, 301, Map.of("Location", "http://127.0.0.1:9/elsewhere"), new byte[0]);
		this.registry.respondNext(1, 302, Map.of("Location", "http://127.0.0.1:9/elsewhere"), new byte[0]);
		RegistryClient client = client().build();
		RegistryException moved = catchRegistry(() -> client.schemaById(1));
		assertThat(moved.statusCode()).isEqualTo(301);
		assertThat(moved.getMessage()).contains("not followed");
		assertThat(catchRegistry(() -> client.schemaById(1)).statusCode()).isEqualTo(302);
		assertThat(this.registry.totalRequests()).isEqualTo(2);
	}

	@Test
	void hugeBodyIsRefusedAtTheResponseLimit() {
		byte[] huge = new byte[20 * 1024 * 1024];
		Arrays.fill(huge, (byte) ' ');
		this.registry.respondNext(1, 200, Map.of(), huge);
		RegistryException failure = catchRegistry(() -> client().build().schemaById(1));
		assertThat(failure.statusCode()).isZero();
		assertThat(failure.getMessage()).contains("exceeds the limit of 8388608 bytes");
		assertThat(failure.isRetryable()).isFalse();
	}

	@Test
	void responseLimitIsConfigurable() {
		long id = this.registry.register("orders-value", ORDER);
		RegistryException failure = catchRegistry(() -> client().maxResponseBytes(10).build().schemaById(id));
		assertThat(failure.getMessage()).contains("exceeds the limit of 10 bytes");
	}

	@Test
	void invalidJsonIsAnError() {
		this.registry.respondNext(1, 200, Map.of(), "{\"schema\": ".getBytes(StandardCharsets.UTF_8));
		RegistryException failure = catchRegistry(() -> client().build().schemaById(1));
		assertThat(failure.statusCode()).isEqualTo(200);
		assertThat(failure.getMessage()).contains("invalid JSON");
	}

	@Test
	void wrongJsonTypesAreErrorsNeverDefaults() {
		RegistryClient client = client().build();
		for (String body : List.of("{\"id\": \"7\"}", "{\"id\": -1}", "{\"id\": 4294967296}", "{\"id\": 1.5}", "[]",
				"{}")) {
			this.registry.respondNext(1, 200, Map.of(), body.getBytes(StandardCharsets.UTF_8));
			assertThat(catchRegistry(() -> client.register("orders-value", ORDER)).getMessage())
				.as(body)
				.contains("invalid response");
		}
		for (String body : List.of("{\"schema\": 5}", "{\"schema\": \"not avro\"}", "{\"schema\": \"{\\\"type\\\": \\\"nope\\\"}\"}",
				"{\"schema\": \"\\\"string\\\"\", \"schemaType\": \"PROTOBUF\"}")) {
			this.registry.respondNext(1, 200, Map.of(), body.getBytes(StandardCharsets.UTF_8));
			assertThat(catchRegistry(() -> client.schemaById(1)).statusCode()).as(body).isEqualTo(200);
		}
	}

	@Test
	void callersWaitingOnOneFetchGetTheSameKindOfFailure() throws Exception {
		RegistryClient client = client().retries(0).build();
		this.registry.respondNext(2, 200, Map.of(),
				"{\"schema\": \"{}\", \"schemaType\": \"XML\"}"
					.getBytes(StandardCharsets.UTF_8));
		this.registry.hold();
		CompletableFuture<Throwable> first = new CompletableFuture<>();
		CompletableFuture<Throwable> second = new CompletableFuture<>();
		new Thread(() -> first.complete(catchRegistry(() -> client.schema(7)))).start();
		await().atMost(Duration.ofSeconds(30)).until(() -> this.registry.requestCount("GET /schemas/ids/7") == 1);
		Thread waiter = new Thread(() -> second.complete(catchRegistry(() -> client.schema(7))));
		waiter.start();
		await().atMost(Duration.ofSeconds(30)).until(() -> waiter.getState() == Thread.State.WAITING);
		// Still one request: the second caller waits on the first's fetch.
		assertThat(this.registry.requestCount("GET /schemas/ids/7")).isOne();
		this.registry.release();
		assertThat(first.get()).isInstanceOf(UnsupportedSchemaException.class);
		assertThat(second.get()).isInstanceOf(UnsupportedSchemaException.class).isNotSameAs(first.get());
	}

	@Test
	void listenerHearsRequestsByOutcomeAndCacheAccesses() {
		long id = this.registry.register("orders-value", ORDER);
		List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
		RegistryClient client = client().retries(0).listener(new RegistryListener() {

			@Override
			public void request(String operation, String outcome, Duration duration) {
				heard.add(operation + ":" + outcome);
			}

			@Override
			public void cacheAccess(String cache, boolean hit) {
				heard.add(cache + ":" + (hit ? "hit" : "miss"));
			}

		}).build();
		client.schemaById(id);
		client.schemaById(id);
		catchRegistry(() -> client.lookup("missing-value", ORDER));
		this.registry.failNext(1, 503, 50003);
		catchRegistry(() -> client.register("orders-value", ORDER));
		this.registry.respondNext(1, 200, Map.of(), "[]".getBytes(StandardCharsets.UTF_8));
		catchRegistry(() -> client.ping());
		this.registry.stop();
		catchRegistry(() -> client.latestVersion("orders-value"));
		assertThat(heard).containsExactly("schemas:miss", "schema-by-id:success", "schemas:hit", "ids:miss",
				"lookup:client-error", "register:server-error", "ping:invalid-response",
				"latest-version:transport-error");
	}

	@Test
	void pingReadsTheGlobalCompatibilityLevel() {
		assertThat(client().build().ping()).isEqualTo("BACKWARD");
		this.registry.stop();
		assertThat(catchRegistry(() -> client().retries(0).build().ping()).statusCode()).isZero();
	}

	@Test
	void requestsSpeakTheRegistryMediaType() {
		client().build().register("orders-value", ORDER);
		assertThat(this.registry.lastRequestHeader("Content-Type")).isEqualTo("application/vnd.schemaregistry.v1+json");
		assertThat(this.registry.lastRequestHeader("Accept")).startsWith("application/vnd.schemaregistry.v1+json");
	}

	@Test
	void schemaTextOverOneMebibyteIsRefused() {
		String name = "a".repeat(RegistryClient.MAX_SCHEMA_BYTES);
		String body = "{\"schema\": \"{\\\"type\\\": \\\"enum\\\", \\\"name\\\": \\\"E\\\", "
				+ "\\\"symbols\\\": [\\\"" + name + "\\\"]}\"}";
		this.registry.respondNext(1, 200, Map.of(), body.getBytes(StandardCharsets.UTF_8));
		RegistryException failure = catchRegistry(() -> client().build().schemaById(1));
		assertThat(failure.getMessage()).contains("schema over 1048576 bytes");
	}

	@Test
	void unknownJsonFieldsAreIgnored() {
		this.registry.respondNext(1, 200, Map.of(),
				"{\"id\": 7, \"guid\": \"x\", \"extra\": {\"nested\": [1, 2]}}".getBytes(StandardCharsets.UTF_8));
		assertThat(client().build().register("orders-value", ORDER)).isEqualTo(7);
	}

	@Test
	void requestFailsOverToTheNextBaseUrl() {
		TestSchemaRegistry down = TestSchemaRegistry.start();
		this.others.add(down);
		down.stop();
		long id = this.registry.register("orders-value", ORDER);
		RegistryClient client = RegistryClient.builder(down.url(), this.registry.url()).retries(0).build();
		assertThat(client.schemaById(id)).isEqualTo(ORDER);

		TestSchemaRegistry failing = TestSchemaRegistry.start();
		this.others.add(failing);
		failing.failNext(1, 503, 50003);
		RegistryClient second = RegistryClient.builder(failing.url(), this.registry.url()).retries(0).build();
		assertThat(second.schemaById(id)).isEqualTo(ORDER);
		assertThat(failing.totalRequests()).isEqualTo(1);
	}

	@Test
	void baseUrlMayCarryAPathPrefix() {
		TestSchemaRegistry prefixed = TestSchemaRegistry.start("/registry");
		this.others.add(prefixed);
		long id = prefixed.register("orders value/1", ORDER);
		RegistryClient client = RegistryClient.builder(prefixed.url() + "/").build();
		assertThat(client.lookup("orders value/1", ORDER)).isEqualTo(id);
		assertThat(prefixed.requestCount("POST /subjects/orders value/1")).isEqualTo(1);
	}

	@Test
	void basicAuthAndBearerTokensAreSent() {
		long id = this.registry.register("orders-value", ORDER);
		client().basicAuth("reader", "s3cret").build().schemaById(id);
		assertThat(this.registry.lastRequestHeader("Authorization")).isEqualTo(
				"Basic " + Base64.getEncoder().encodeToString("reader:s3cret".getBytes(StandardCharsets.UTF_8)));
		client().bearerToken("t0ken").build().schemaById(id);
		assertThat(this.registry.lastRequestHeader("Authorization")).isEqualTo("Bearer t0ken");
		client().build().schemaById(id);
		assertThat(this.registry.lastRequestHeader("Authorization")).isNull();
	}

	@Test
	void refusedBaseUrlsNeverEchoCredentials() {
		assertThatIllegalArgumentException().isThrownBy(() -> RegistryClient.builder("http://user:s3cret@host").build())
			.withMessageContaining("must not embed credentials")
			.withMessageNotContaining("s3cret");
		assertThatIllegalArgumentException().isThrownBy(() -> RegistryClient.builder("http://host/?a=b").build())
			.withMessageContaining("query");
		assertThatIllegalArgumentException().isThrownBy(() -> RegistryClient.builder("http://host/#x").build())
			.withMessageContaining("fragment");
		assertThatIllegalArgumentException().isThrownBy(() -> RegistryClient.builder("ftp://host").build())
			.withMessageContaining("http or https");
		assertThatIllegalArgumentException().isThrownBy(() -> RegistryClient.builder().build())
			.withMessageContaining("at least one");
	}

	@Test
	void optionsOutsideTheirRangesAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> client().timeout(Duration.ZERO).build());
		assertThatIllegalArgumentException().isThrownBy(() -> client().timeout(Duration.ofMinutes(61)).build());
		assertThatIllegalArgumentException().isThrownBy(() -> client().maxResponseBytes(0).build());
		assertThatIllegalArgumentException().isThrownBy(() -> client().maxResponseBytes(16 * 1024 * 1024 + 1).build());
		assertThatIllegalArgumentException().isThrownBy(() -> client().cacheCapacity(0).build());
		assertThatIllegalArgumentException().isThrownBy(() -> client().cacheCapacity(1025).build());
		assertThatIllegalArgumentException().isThrownBy(() -> client().retries(-1).build());
		assertThatIllegalArgumentException().isThrownBy(() -> client().retries(11).build());
		assertThatIllegalArgumentException().isThrownBy(() -> client().basicAuth("u", "p").bearerToken("t").build())
			.withMessageContaining("exclusive");
		client().timeout(Duration.ofHours(1)).maxResponseBytes(16 * 1024 * 1024).cacheCapacity(1024).retries(10).build();
	}

	@Test
	void concurrentMissesForOneIdMakeOneRequest() throws Exception {
		long id = this.registry.register("orders-value", ORDER);
		RegistryClient client = client().build();
		this.registry.hold();
		ExecutorService threads = Executors.newFixedThreadPool(16);
		try {
			List<Future<Schema>> results = new ArrayList<>();
			for (int i = 0; i < 16; i++) {
				results.add(threads.submit(() -> client.schemaById(id)));
			}
			await().until(() -> this.registry.requestCount("GET /schemas/ids/" + id) == 1);
			this.registry.release();
			for (Future<Schema> result : results) {
				assertThat(result.get()).isEqualTo(ORDER);
			}
			assertThat(this.registry.requestCount("GET /schemas/ids/" + id)).isEqualTo(1);
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void cacheHitsProceedWhileAnotherRequestIsBlockedInHttp() throws Exception {
		long cachedId = this.registry.register("orders-value", ORDER);
		long otherId = this.registry.register("other-value", schema("Other"));
		RegistryClient client = client().build();
		client.schemaById(cachedId);
		client.lookup("orders-value", ORDER);
		this.registry.hold();
		CompletableFuture<Schema> blocked = CompletableFuture.supplyAsync(() -> client.schemaById(otherId));
		await().until(() -> this.registry.requestCount("GET /schemas/ids/" + otherId) == 1);
		// The miss is parked inside HTTP; hits on both caches must not wait for it.
		for (int i = 0; i < 1000; i++) {
			assertThat(client.schemaById(cachedId)).isEqualTo(ORDER);
			assertThat(client.lookup("orders-value", ORDER)).isEqualTo(cachedId);
		}
		assertThat(blocked).isNotDone();
		this.registry.release();
		assertThat(blocked.get()).isEqualTo(schema("Other"));
	}

	private static RegistryException catchRegistry(Runnable call) {
		try {
			call.run();
		}
		catch (RegistryException ex) {
			return ex;
		}
		throw new AssertionError("Expected a RegistryException");
	}

}
