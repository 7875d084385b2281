package dev.lockstep.autoconfigure.validation;

/**
 * A Lockstep or Kafka setting that would make a worker unsafe or cannot work. Start-up
 * stops with a report naming the property, where it came from, why, and what to do.
 */
public class LockstepConfigurationException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String property;

	private final String origin;

	private final String reason;

	private final String action;

	/**
	 * Create an exception.
	 * @param property the offending property, such as
	 * {@code lockstep.workers.orders.consumer.enable.auto.commit}
	 * @param origin where it was set, such as {@code class path resource [application.yml] - 12:7}
	 * @param reason why it is refused
	 * @param action what to do instead, such as the nearest valid key
	 */
	public LockstepConfigurationException(String property, String origin, String reason, String action) {
		super(property + ((origin != null) ? " (from " + origin + ")" : "") + ": " + reason);
		this.property = property;
		this.origin = origin;
		this.reason = reason;
		this.action = action;
	}

	public String getProperty() {
		return this.property;
	}

	public String getOrigin() {
		return this.origin;
	}

	public String getReason() {
		return this.reason;
	}

	public String getAction() {
		return this.action;
	}

}
