package dev.lockstep.worker.slot;

import dev.lockstep.worker.FailureCategory;
import dev.lockstep.worker.FailureClassifier;
import dev.lockstep.worker.RecoveryPolicy;

/**
 * A slot's categories of failures: the {@link FailureClassifier}'s, passed through the
 * user's {@link RecoveryPolicy}, which sees each failure once however often the slot asks.
 */
final class SlotFailures {

	private final FailureClassifier classifier;

	private final RecoveryPolicy policy;

	private Throwable last;

	private FailureCategory lastCategory;

	SlotFailures(FailureClassifier classifier, RecoveryPolicy policy) {
		this.classifier = classifier;
		this.policy = policy;
	}

	FailureCategory categorize(Throwable failure) {
		return categorize(failure, false);
	}

	/**
	 * Categorize a failure, once: asked again for the same failure, the first answer stands.
	 * @param failure the failure
	 * @param byProcessor whether the user's processor threw it, which makes it the
	 * record's failure whatever its type
	 * @return its category
	 */
	FailureCategory categorize(Throwable failure, boolean byProcessor) {
		if (failure != this.last) {
			FailureCategory classified = byProcessor ? this.classifier.classifyProcessorFailure(failure)
					: this.classifier.classify(failure);
			this.lastCategory = this.policy.recover(failure, classified);
			this.last = failure;
		}
		return this.lastCategory;
	}

}
