package dev.lockstep.autoconfigure;

import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.registry.DataContractException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;

import org.springframework.core.log.LogAccessor;

/**
 * Refuses, at start-up, a worker output whose subject's latest version carries a
 * Confluent data-contract rule to run on write that Lockstep cannot run (a field
 * encryption, a condition): the serializer would refuse every record. When the registry
 * cannot be asked, start-up goes on and the serializer refuses the rule at its first record.
 */
final class OutputContractCheck {

	private static final LogAccessor logger = new LogAccessor(OutputContractCheck.class);

	private final RegistryClient registry;

	OutputContractCheck(RegistryClient registry) {
		this.registry = registry;
	}

	/**
	 * Check the subject an output writes under.
	 * @param property the output's codec property, for the report
	 * @param subject the subject
	 */
	void check(String property, String subject) {
		try {
			this.registry.requireWritable(subject);
		}
		catch (DataContractException ex) {
			throw new LockstepConfigurationException(property, null, "subject " + subject + ": " + ex.getMessage(),
					"Remove the rule from the subject's latest version, or list its name or type in "
							+ "lockstep.registry.ignored-rules if data may be written without it.");
		}
		catch (RegistryException ex) {
			logger.warn(() -> "Could not read the latest version of subject " + subject + " to check its data "
					+ "contract (" + ex.getMessage() + "); its serializer checks it at its first record");
		}
	}

}
