package dev.lockstep.autoconfigure.validation;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a {@link LockstepConfigurationException} into Spring Boot's start-up failure
 * report: the property, where it came from, why it is refused, and what to do.
 */
class LockstepConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<LockstepConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, LockstepConfigurationException cause) {
		StringBuilder description = new StringBuilder("Lockstep refused the configuration.\n\n");
		description.append("    Property: ").append(cause.getProperty()).append('\n');
		if (cause.getOrigin() != null) {
			description.append("    Origin: ").append(cause.getOrigin()).append('\n');
		}
		description.append("    Reason: ").append(cause.getReason()).append('\n');
		return new FailureAnalysis(description.toString(), cause.getAction(), cause);
	}

}
