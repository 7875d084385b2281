package dev.lockstep.registry;

/**
 * A schema carries a Confluent data-contract rule ({@code ruleSet}) that applies in the
 * direction a codec works in and that Lockstep cannot run: a CEL condition, a field
 * encryption, a transformation. Confluent's serializers run such rules, so going on
 * without it would pass on data its owner asked to be checked, encrypted or transformed.
 * A reader treats a message written with such a schema as invalid data; a writer does not
 * write with it. Ignoring a rule is an explicit choice
 * ({@link RegistryClient.Builder#ignoredRules}).
 */
public class DataContractException extends UnsupportedSchemaException {

	private static final long serialVersionUID = 1L;

	/**
	 * Create an exception.
	 * @param message the rule and why it stops the codec
	 */
	public DataContractException(String message) {
		super(message, null);
	}

}
