package dev.lockstep.autoconfigure.validation;

import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Gives tests in other packages the package-private failure analyzers, and the refusal
 * behind a start-up failure.
 */
public class LockstepConfigurationFailureAnalyzerAccess {

	/**
	 * Assert that a start-up failed with a {@link LockstepConfigurationException}.
	 * @param failure the context's start-up failure
	 * @return the refusal in its cause chain
	 */
	public static LockstepConfigurationException refusalIn(Throwable failure) {
		assertThat(failure).as("start-up failure").isNotNull();
		Throwable cause = failure;
		while (cause != null && !(cause instanceof LockstepConfigurationException)) {
			cause = cause.getCause();
		}
		assertThat(cause).as(() -> "no LockstepConfigurationException in " + failure)
			.isInstanceOf(LockstepConfigurationException.class);
		return (LockstepConfigurationException) cause;
	}

	public FailureAnalysis analyze(Throwable failure) {
		return new LockstepConfigurationFailureAnalyzer().analyze(failure);
	}

	/**
	 * Analyze a start-up failure caused by a configuration the cluster cannot serve.
	 * @param failure the context's start-up failure
	 * @return the analysis
	 */
	public static FailureAnalysis analyzeMissingClusterFeature(Throwable failure) {
		return new MissingClusterFeatureFailureAnalyzer().analyze(failure);
	}

}
