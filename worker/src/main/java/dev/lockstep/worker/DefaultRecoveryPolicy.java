package dev.lockstep.worker;

/**
 * Keeps the {@link FailureClassifier}'s category of every failure.
 */
public class DefaultRecoveryPolicy implements RecoveryPolicy {

	@Override
	public FailureCategory recover(Throwable failure, FailureCategory classified) {
		return classified;
	}

}
