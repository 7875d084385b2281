package dev.lockstep.worker;

import java.util.concurrent.CompletionStage;

/**
 * The asynchronous form of {@link ValueTransformer}, for non-blocking clients: one output
 * value per input value, delivered by a stage. The worker carries the key and headers
 * over to the destination topic and forwards tombstones without calling the transformer.
 * Called from several threads at once: it must be thread-safe, must not block, and its
 * stage must complete (see {@link AsyncRecordProcessor}).
 *
 * @param <I> the input value type
 * @param <O> the output value type
 */
@FunctionalInterface
public interface AsyncValueTransformer<I, O> {

	/**
	 * Start transforming one value.
	 * @param value the decoded input value, never {@code null}
	 * @return a stage of the output value ({@code null} writes a tombstone); completed
	 * exceptionally with an {@link InvalidRecordException} to reject the record as invalid
	 * input, with anything else for a transient failure
	 * @throws Exception as for an exceptionally completed stage
	 */
	CompletionStage<O> transform(I value) throws Exception;

}
