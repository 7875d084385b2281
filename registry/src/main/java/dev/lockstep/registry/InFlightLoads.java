package dev.lockstep.registry;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * Loads in flight, by key: a caller that asks for a key another caller is already loading
 * waits for that load instead of starting its own, so that concurrent cache misses for one
 * schema make one request to the registry. Nothing is kept once a load ends: caching its
 * result is the caller's business.
 */
final class InFlightLoads {

	private final ConcurrentMap<Object, CompletableFuture<Object>> loads = new ConcurrentHashMap<>();

	/**
	 * Return what the loader gives for the key, or what the load of the key already in
	 * flight gives.
	 * @param <T> the value's type
	 * @param key what is loaded, such as a schema id
	 * @param loader the load, run only when no other is in flight for the key
	 * @return the value
	 * @throws RuntimeException the load's failure: to the caller that ran the load, as the
	 * loader threw it; to a waiter, its own copy of a {@link RegistryException} or an
	 * {@link UnsupportedSchemaException} (a subclass copied as that type), any other failure
	 * wrapped in a {@link CompletionException}
	 */
	@SuppressWarnings("unchecked")
	<T> T load(Object key, Supplier<T> loader) {
		CompletableFuture<Object> mine = new CompletableFuture<>();
		CompletableFuture<Object> running = this.loads.putIfAbsent(key, mine);
		if (running != null) {
			try {
				return (T) running.join();
			}
			catch (CompletionException ex) {
				throw copyFor(ex);
			}
		}
		try {
			T value = loader.get();
			mine.complete(value);
			return value;
		}
		catch (RuntimeException | Error ex) {
			// An Error too: waiters already joined would otherwise wait forever.
			mine.completeExceptionally(ex);
			throw ex;
		}
		finally {
			this.loads.remove(key, mine);
		}
	}

	// Each waiter gets its own exception of the registry's kinds, with its own stack.
	private static RuntimeException copyFor(CompletionException ex) {
		if (ex.getCause() instanceof UnsupportedSchemaException failure) {
			return new UnsupportedSchemaException(failure.getMessage(), failure);
		}
		if (ex.getCause() instanceof RegistryException failure) {
			return new RegistryException(failure.getMessage(), failure.statusCode(), failure.errorCode(),
					failure.isRetryable(), failure);
		}
		return ex;
	}

}
