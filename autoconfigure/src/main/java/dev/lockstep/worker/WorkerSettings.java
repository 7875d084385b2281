package dev.lockstep.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Everything a {@link Worker} needs, resolved: Kafka client properties already merged
 * (connection, security and the worker's own), codecs already built. Configuration
 * classes build this from {@code lockstep.workers.<name>.*}; tests build it directly.
 *
 * @param name the worker's name, used in thread names, logs and metrics
 * @param sourceTopics the topics consumed
 * @param destination the topic {@link Output#toDestination} writes to
 * @param groupId the consumer group
 * @param transactionalId the base of each slot's transactional id ({@code <id>-<slot>})
 * @param consumerProperties consumer properties (bootstrap servers, security, tuning)
 * @param producerProperties producer properties (bootstrap servers, security, tuning)
 * @param codecs the key and value codecs of input and output
 * @param concurrency the number of slots, each one consumer and one transactional producer
 * @param pollTimeout the longest a poll waits for records
 * @param transaction when an open transaction is committed
 * @param invalidInput what happens to records that can never be processed
 * @param backoff the backoff between recovery attempts
 * @param bounds optional bounds for one-shot runs
 * @param shutdownTimeout the longest a graceful stop waits for the slots
 */
public record WorkerSettings(String name, List<String> sourceTopics, String destination, String groupId,
		String transactionalId, Map<String, Object> consumerProperties, Map<String, Object> producerProperties,
		Codecs codecs, int concurrency, Duration pollTimeout, TransactionSizing transaction,
		InvalidInputPolicy invalidInput, Backoff backoff, Bounds bounds, Duration shutdownTimeout) {

	public WorkerSettings {
		sourceTopics = List.copyOf(sourceTopics);
		consumerProperties = Map.copyOf(consumerProperties);
		producerProperties = Map.copyOf(producerProperties);
		if (concurrency < 1) {
			throw new IllegalArgumentException("Concurrency must be at least 1, not " + concurrency);
		}
	}

	/**
	 * The transactional id of one slot: stable across restarts, so a restarted slot
	 * fences its predecessor and aborts its open transaction at once.
	 * @param slot the slot index, from 0
	 * @return the transactional id
	 */
	public String transactionalId(int slot) {
		return this.transactionalId + "-" + slot;
	}

	/**
	 * The codecs of a worker's input and output. Each must be thread-safe: slots share them.
	 *
	 * @param keyDeserializer decodes input keys
	 * @param valueDeserializer decodes input values
	 * @param keySerializer encodes output keys
	 * @param valueSerializer encodes output values
	 */
	public record Codecs(Deserializer<?> keyDeserializer, Deserializer<?> valueDeserializer,
			Serializer<?> keySerializer, Serializer<?> valueSerializer) {

	}

	/**
	 * When an open transaction is committed: after this many input records or this long
	 * after it began, whichever comes first. A transaction may span several polls.
	 *
	 * @param maxRecords the most input records in one transaction
	 * @param maxInterval the longest a transaction stays open
	 */
	public record TransactionSizing(int maxRecords, Duration maxInterval) {

	}

	/**
	 * What happens to a record that can never be processed (malformed bytes, a schema id
	 * the registry does not know, a processor's {@link InvalidRecordException}).
	 *
	 * @param mode block the worker at the record, or quarantine it
	 * @param quarantineTopic where quarantined records go, for {@link Mode#QUARANTINE}
	 */
	public record InvalidInputPolicy(Mode mode, String quarantineTopic) {

		/**
		 * The invalid-input modes.
		 */
		public enum Mode {

			/** Commit nothing past the record; retry it with backoff; report BLOCKED. */
			BLOCK,

			/** Write the raw record and error headers to the quarantine topic, in the transaction. */
			QUARANTINE

		}

	}

	/**
	 * Exponential backoff between recovery attempts.
	 *
	 * @param initial the first wait
	 * @param max the longest wait
	 */
	public record Backoff(Duration initial, Duration max) {

	}

	/**
	 * Bounds for one-shot runs.
	 *
	 * @param stopAfterRecords stop once this many input records are committed (0: never)
	 * @param idleTimeout fail when no input arrives for this long (null: wait forever)
	 */
	public record Bounds(long stopAfterRecords, Duration idleTimeout) {

		/** No bounds: a long-running worker. */
		public static final Bounds NONE = new Bounds(0, null);

	}

}
