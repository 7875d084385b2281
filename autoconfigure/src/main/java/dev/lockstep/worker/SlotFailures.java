package dev.lockstep.worker;

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
		if (failure != this.last) {
			this.lastCategory = this.policy.recover(failure, this.classifier.classify(failure));
			this.last = failure;
		}
		return this.lastCategory;
	}

}
