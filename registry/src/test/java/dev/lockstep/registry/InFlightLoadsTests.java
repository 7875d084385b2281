package dev.lockstep.registry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

class InFlightLoadsTests {

	private static final int WAITERS = 4;

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final InFlightLoads loads = new InFlightLoads();

	private final ExecutorService threads = Executors.newFixedThreadPool(WAITERS + 1);

	private final List<Thread> waiting = new ArrayList<>();

	private final CountDownLatch started = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	private final AtomicInteger loaderRuns = new AtomicInteger();

	@AfterEach
	void stopThreads() {
		this.release.countDown();
		this.threads.shutdownNow();
	}

	@Test
	void callersOfAKeyInFlightWaitForItsLoadInsteadOfRunningTheirOwn() throws Exception {
		Future<String> first = this.threads.submit(() -> this.loads.load(42L, heldLoad(() -> "schema 42")));
		List<Future<String>> others = waitersOn(42L, () -> "a second load");
		this.release.countDown();
		assertThat(result(first)).isEqualTo("schema 42");
		for (Future<String> other : others) {
			assertThat(result(other)).isEqualTo("schema 42");
		}
		assertThat(this.loaderRuns).hasValue(1);
	}

	@Test
	void aKeyNotInFlightIsLoadedByItsCallerEvenWhileAnotherKeyIs() throws Exception {
		Future<String> held = this.threads.submit(() -> this.loads.load(42L, heldLoad(() -> "schema 42")));
		this.started.await();
		Future<String> other = this.threads.submit(() -> this.loads.load(43L, () -> "schema 43"));
		assertThat(result(other)).isEqualTo("schema 43");
		this.release.countDown();
		assertThat(result(held)).isEqualTo("schema 42");
	}

	@Test
	void eachWaiterGetsItsOwnRegistryExceptionOfTheLoadsKind() throws Exception {
		RegistryException failure = new RegistryException("registry unavailable", 503, 50301, true, null);
		for (Future<String> other : waitersOnAFailedLoad(failure)) {
			RegistryException copy = catchThrowableOfType(RegistryException.class, () -> unwrap(other));
			assertThat(copy).isNotSameAs(failure).hasMessage("registry unavailable");
			assertThat(copy.getCause()).isSameAs(failure);
			assertThat(copy.statusCode()).isEqualTo(503);
			assertThat(copy.errorCode()).isEqualTo(50301);
			assertThat(copy.isRetryable()).isTrue();
		}
		assertThat(this.loaderRuns).hasValue(1);
	}

	@Test
	void eachWaiterGetsItsOwnUnsupportedSchemaException() throws Exception {
		UnsupportedSchemaException failure = new UnsupportedSchemaException("not an Avro schema", null);
		for (Future<String> other : waitersOnAFailedLoad(failure)) {
			UnsupportedSchemaException copy = catchThrowableOfType(UnsupportedSchemaException.class,
					() -> unwrap(other));
			assertThat(copy).isNotSameAs(failure).hasMessage("not an Avro schema");
			assertThat(copy.getCause()).isSameAs(failure);
		}
		assertThat(this.loaderRuns).hasValue(1);
	}

	@Test
	void waitersAreReleasedWhenTheLoadEndsInAnError() throws Exception {
		StackOverflowError failure = new StackOverflowError("a schema nested too deep");
		for (Future<String> other : waitersOnAFailedLoad(failure)) {
			assertThat(catchThrowable(() -> unwrap(other))).isInstanceOf(CompletionException.class)
				.cause()
				.isSameAs(failure);
		}
		assertThat(this.loaderRuns).hasValue(1);
	}

	@Test
	void aLoadThatEndedIsNotKeptSoTheNextCallerLoadsAgain() {
		assertThat(this.loads.load(42L, () -> "first")).isEqualTo("first");
		assertThat(this.loads.load(42L, () -> "second")).isEqualTo("second");
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> this.loads.load(42L, () -> {
				throw new IllegalStateException("failed");
			}));
		assertThat(this.loads.load(42L, () -> "after the failure")).isEqualTo("after the failure");
	}

	// A load that says it has started and ends only when the test releases it.
	private <T> Supplier<T> heldLoad(Supplier<T> result) {
		return () -> {
			this.loaderRuns.incrementAndGet();
			this.started.countDown();
			try {
				this.release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			return result.get();
		};
	}

	// The callers that waited on a load that failed, once its own caller got the failure as thrown.
	private List<Future<String>> waitersOnAFailedLoad(Throwable failure) throws Exception {
		Future<String> first = this.threads.submit(() -> this.loads.load(42L, heldLoad(() -> {
			if (failure instanceof Error error) {
				throw error;
			}
			throw (RuntimeException) failure;
		})));
		List<Future<String>> others = waitersOn(42L, () -> "a second load");
		this.release.countDown();
		assertThat(catchThrowable(() -> unwrap(first))).isSameAs(failure);
		return others;
	}

	// Callers of the key once its load has started, each returned once it waits on that load.
	private List<Future<String>> waitersOn(Object key, Supplier<String> ownLoad) throws InterruptedException {
		this.started.await();
		List<Future<String>> futures = new ArrayList<>();
		for (int i = 0; i < WAITERS; i++) {
			futures.add(this.threads.submit(() -> {
				synchronized (this.waiting) {
					this.waiting.add(Thread.currentThread());
				}
				return this.loads.load(key, () -> {
					this.loaderRuns.incrementAndGet();
					return ownLoad.get();
				});
			}));
		}
		await().until(() -> {
			synchronized (this.waiting) {
				return this.waiting.size() == WAITERS && this.waiting.stream().allMatch(InFlightLoadsTests::waitsOnALoad);
			}
		});
		return futures;
	}

	private static boolean waitsOnALoad(Thread thread) {
		return thread.getState() == Thread.State.WAITING && Arrays.stream(thread.getStackTrace())
			.anyMatch((frame) -> frame.getClassName().equals(CompletableFuture.class.getName()));
	}

	private static <T> T result(Future<T> future) throws Exception {
		return future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
	}

	// The call's own exception, or a TimeoutException if it never ends.
	private static <T> T unwrap(Future<T> future) throws Throwable {
		try {
			return result(future);
		}
		catch (ExecutionException ex) {
			throw ex.getCause();
		}
	}

}
