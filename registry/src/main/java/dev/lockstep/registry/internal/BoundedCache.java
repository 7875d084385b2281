package dev.lockstep.registry.internal;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A bounded map that evicts its oldest entry when full. Reads take no lock and do no I/O;
 * keys must have content-based {@code equals}/{@code hashCode}. Internal: not API.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class BoundedCache<K, V> {

	private final int capacity;

	private final Map<K, V> entries = new ConcurrentHashMap<>();

	private final Queue<K> insertionOrder = new ConcurrentLinkedQueue<>();

	/**
	 * Create an empty cache.
	 * @param capacity the most entries it holds
	 */
	public BoundedCache(int capacity) {
		if (capacity < 1) {
			throw new IllegalArgumentException("Cache capacity must be at least 1, not " + capacity);
		}
		this.capacity = capacity;
	}

	/**
	 * Return the cached value.
	 * @param key the key
	 * @return the value, or {@code null}
	 */
	public V get(K key) {
		return this.entries.get(key);
	}

	/**
	 * Store a value, evicting the oldest entries beyond the capacity.
	 * @param key the key
	 * @param value the value
	 */
	public void put(K key, V value) {
		if (this.entries.putIfAbsent(key, value) == null) {
			this.insertionOrder.add(key);
			while (this.entries.size() > this.capacity) {
				K oldest = this.insertionOrder.poll();
				if (oldest == null) {
					break;
				}
				this.entries.remove(oldest);
			}
		}
	}

	/**
	 * Remove every entry.
	 */
	public void clear() {
		this.entries.clear();
		this.insertionOrder.clear();
	}

}
