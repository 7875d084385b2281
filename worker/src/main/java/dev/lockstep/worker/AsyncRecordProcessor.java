package dev.lockstep.worker;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Worker logic for non-blocking clients: the processor starts its work and returns at
 * once; the stage it returns completes when the record's outputs are all sent to the
 * {@link Output}. Under ordering {@code key} or {@code none} a record in flight then
 * holds no thread, so max-in-flight may be in the thousands; under {@code partition} the
 * slot waits for each stage in turn. Everything sent is written in the transaction that
 * commits the input's offset, and only once the stage completed normally.
 * <p>
 * The processor is called from several threads at once and must be thread-safe. It must
 * not block before returning, and its stage must complete: give its clients a timeout (a
 * stage that never completes holds its partition).
 *
 * @param <K> the input key type
 * @param <V> the input value type
 */
@FunctionalInterface
public interface AsyncRecordProcessor<K, V> {

	/**
	 * Start processing one decoded input record; tombstones ({@code null} values) are
	 * passed too.
	 * @param record the input record, key and value decoded
	 * @param output where output records go, from any thread, until the stage completes
	 * @return a stage that completes once every output is sent; completed exceptionally
	 * with an {@link InvalidRecordException} to reject the record as invalid input, with
	 * anything else for a transient failure (the transaction is aborted and replayed)
	 * @throws Exception as for an exceptionally completed stage
	 */
	CompletionStage<?> process(ConsumerRecord<K, V> record, Output output) throws Exception;

	/**
	 * Adapt an asynchronous value transformer: key and headers carried over to the
	 * destination topic, tombstones forwarded without calling it.
	 * @param <K> the key type
	 * @param <I> the input value type
	 * @param <O> the output value type
	 * @param transformer the transformer
	 * @return a processor
	 */
	static <K, I, O> AsyncRecordProcessor<K, I> of(AsyncValueTransformer<I, O> transformer) {
		return (record, output) -> {
			if (record.value() == null) {
				output.toDestination(record.key(), null, record.headers());
				return CompletableFuture.completedFuture(null);
			}
			return transformer.transform(record.value())
				.thenAccept((value) -> output.toDestination(record.key(), value, record.headers()));
		};
	}

}
