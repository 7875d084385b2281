package dev.lockstep.worker;

/**
 * The simplest worker logic: one output value per input value. The worker carries the
 * key and headers over to the destination topic, and forwards tombstones ({@code null}
 * values) as tombstones without calling the transformer.
 *
 * @param <I> the input value type
 * @param <O> the output value type
 */
@FunctionalInterface
public interface ValueTransformer<I, O> {

	/**
	 * Transform one value.
	 * @param value the decoded input value, never {@code null}
	 * @return the output value; {@code null} writes a tombstone
	 * @throws InvalidRecordException to reject the record as invalid input
	 * @throws Exception for a transient failure: the transaction is aborted and replayed
	 */
	O transform(I value) throws Exception;

}
