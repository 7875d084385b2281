package dev.lockstep.worker;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The general form of worker logic: zero or more output records per input record, to
 * any topics, with chosen keys and headers. Everything sent through the {@link Output}
 * is written in the same transaction that commits the input's offset, and only once the
 * processor returns normally.
 *
 * @param <K> the input key type
 * @param <V> the input value type
 */
@FunctionalInterface
public interface RecordProcessor<K, V> {

	/**
	 * Process one decoded input record; tombstones ({@code null} values) are passed too.
	 * @param record the input record, key and value decoded
	 * @param output where output records go
	 * @throws InvalidRecordException to reject the record as invalid input
	 * @throws Exception for a transient failure: the transaction is aborted and replayed
	 */
	void process(ConsumerRecord<K, V> record, Output output) throws Exception;

	/**
	 * Adapt a value transformer: key and headers carried over to the destination topic,
	 * tombstones forwarded without calling it.
	 * @param <K> the key type
	 * @param <I> the input value type
	 * @param <O> the output value type
	 * @param transformer the transformer
	 * @return a processor
	 */
	static <K, I, O> RecordProcessor<K, I> of(ValueTransformer<I, O> transformer) {
		return (record, output) -> output.toDestination(record.key(),
				(record.value() != null) ? transformer.transform(record.value()) : null, record.headers());
	}

}
