package dev.lockstep.worker;

/**
 * Thrown when a worker starts with a configuration its cluster's finalized features
 * cannot serve, such as {@code group.protocol=consumer} against a cluster without
 * {@code group.version} 1: refused before any slot starts instead of failing later.
 */
public class MissingClusterFeatureException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String feature;

	private final String property;

	private final String reason;

	private final String action;

	/**
	 * Create the exception.
	 * @param feature the cluster feature that is missing, such as {@code group.version}
	 * @param property the client property that needs it, such as {@code group.protocol}
	 * @param reason what the configuration asks and what the cluster offers
	 * @param action what to change
	 */
	public MissingClusterFeatureException(String feature, String property, String reason, String action) {
		super(reason + " " + action);
		this.feature = feature;
		this.property = property;
		this.reason = reason;
		this.action = action;
	}

	/**
	 * Return the cluster feature that is missing.
	 * @return the feature's name
	 */
	public String getFeature() {
		return this.feature;
	}

	/**
	 * Return the client property whose value needs the feature.
	 * @return the Kafka client property
	 */
	public String getProperty() {
		return this.property;
	}

	/**
	 * Return what the configuration asks and what the cluster offers.
	 * @return the reason
	 */
	public String getReason() {
		return this.reason;
	}

	/**
	 * Return what to change.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

}
