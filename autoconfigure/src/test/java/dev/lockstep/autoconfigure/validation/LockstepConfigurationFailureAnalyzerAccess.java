package dev.lockstep.autoconfigure.validation;

import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Gives tests in other packages the package-private failure analyzer.
 */
public class LockstepConfigurationFailureAnalyzerAccess {

	public FailureAnalysis analyze(Throwable failure) {
		return new LockstepConfigurationFailureAnalyzer().analyze(failure);
	}

}
