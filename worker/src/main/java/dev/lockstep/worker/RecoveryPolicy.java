package dev.lockstep.worker;

/**
 * The user's hook into a worker's failure handling: it sees each failure with the
 * category the {@link FailureClassifier} gave it, and may give another, for example to
 * treat an application exception as {@link FailureCategory#INVALID_INPUT}.
 * {@link #AS_CLASSIFIED} keeps the classifier's category.
 */
@FunctionalInterface
public interface RecoveryPolicy {

	/** Keeps the classifier's category of every failure: the default. */
	RecoveryPolicy AS_CLASSIFIED = (failure, classified) -> classified;

	/**
	 * Decide the category of a failure.
	 * @param failure the failure
	 * @param classified the category the classifier gave it
	 * @return the category the worker acts on
	 */
	FailureCategory recover(Throwable failure, FailureCategory classified);

}
