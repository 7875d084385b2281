package dev.lockstep.worker;

import org.apache.kafka.common.header.Headers;

/**
 * Where a {@link RecordProcessor} sends its output. Records are encoded with the
 * worker's output codecs and written in the worker's current transaction.
 */
public interface Output {

	/**
	 * Send a record to the worker's destination topic.
	 * @param key the key, or {@code null}
	 * @param value the value, or {@code null} for a tombstone
	 * @param headers the headers, or {@code null}
	 */
	void toDestination(Object key, Object value, Headers headers);

	/**
	 * Send a record to any topic.
	 * @param topic the topic
	 * @param key the key, or {@code null}
	 * @param value the value, or {@code null} for a tombstone
	 * @param headers the headers, or {@code null}
	 */
	void send(String topic, Object key, Object value, Headers headers);

}
