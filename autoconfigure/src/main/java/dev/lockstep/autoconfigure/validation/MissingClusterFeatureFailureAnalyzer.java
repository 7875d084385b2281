package dev.lockstep.autoconfigure.validation;

import dev.lockstep.worker.MissingClusterFeatureException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a worker configuration its cluster's features cannot serve: the feature, the
 * client property that needs it, and what to change.
 */
class MissingClusterFeatureFailureAnalyzer extends AbstractFailureAnalyzer<MissingClusterFeatureException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, MissingClusterFeatureException cause) {
		String description = "Lockstep refused a configuration the Kafka cluster cannot serve.\n\n    Feature: "
				+ cause.getFeature() + "\n    Property: " + cause.getProperty() + "\n    Reason: " + cause.getReason()
				+ "\n";
		return new FailureAnalysis(description, cause.getAction(), cause);
	}

}
