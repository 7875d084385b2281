package dev.lockstep.test.kafka;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.FeatureMetadata;

/**
 * The feature levels a running cluster has finalized, as its controller reports them:
 * what a test proves it ran against ({@code metadata.version}'s level says the release
 * line, {@code transaction.version} and {@code group.version} the protocols on offer).
 * Kafka's names for metadata version levels are not public API on the client side; the
 * worker runtime's {@code ClusterFeatures} names them.
 *
 * @param levels each finalized feature's level
 */
public record FinalizedFeatures(Map<String, Short> levels) {

	/** The transactions protocol: 2 is KIP-890's transactions v2, 0 or 1 the protocol before it. */
	public static final String TRANSACTION_VERSION = "transaction.version";

	/** The group protocol: 1 or more offers KIP-848's consumer group protocol. */
	public static final String GROUP_VERSION = "group.version";

	/** The metadata version, whose level names the release line. */
	public static final String METADATA_VERSION = "metadata.version";

	public FinalizedFeatures {
		levels = Map.copyOf(levels);
	}

	/**
	 * Ask a cluster for its finalized features.
	 * @param bootstrapServers the cluster's bootstrap servers
	 * @return its features
	 */
	public static FinalizedFeatures of(String bootstrapServers) {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
			FeatureMetadata metadata = admin.describeFeatures().featureMetadata().get(60, TimeUnit.SECONDS);
			return new FinalizedFeatures(metadata.finalizedFeatures()
				.entrySet()
				.stream()
				.collect(Collectors.toMap(Map.Entry::getKey, (entry) -> entry.getValue().maxVersionLevel())));
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("Could not describe the features of " + bootstrapServers, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Return a finalized feature's level, 0 when it is not finalized (the release's
	 * behaviour before the feature existed).
	 * @param feature the feature's name
	 * @return its level
	 */
	public short level(String feature) {
		return this.levels.getOrDefault(feature, (short) 0);
	}

	/**
	 * Return what a report line needs:
	 * {@code metadata.version=27 transaction.version=2 group.version=1}.
	 * @return the description
	 */
	@Override
	public String toString() {
		return METADATA_VERSION + "=" + level(METADATA_VERSION) + " " + TRANSACTION_VERSION + "=" + level(TRANSACTION_VERSION)
				+ " " + GROUP_VERSION + "=" + level(GROUP_VERSION);
	}

}
