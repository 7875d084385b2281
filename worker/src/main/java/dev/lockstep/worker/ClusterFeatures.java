package dev.lockstep.worker;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeFeaturesOptions;
import org.apache.kafka.clients.admin.FeatureMetadata;

/**
 * The features a Kafka cluster has finalized, as its controller reports them
 * ({@code Admin.describeFeatures}): which transaction protocol, group protocols and
 * metadata version the cluster serves. A worker reads them when it starts, logs them,
 * shows them in its {@link WorkerState} and refuses a configuration they cannot serve.
 *
 * @param metadataVersion the finalized metadata version's name, such as {@code 4.4-IV2}:
 * the release line the cluster's metadata runs at ({@code level N} for a level newer than
 * this Lockstep knows); {@code null} when the features could not be read
 * @param finalized each finalized feature's level ({@code metadata.version},
 * {@code transaction.version}, {@code group.version}, {@code share.version}, ...)
 * @param unreadBecause why the features could not be read, {@code null} when they were
 */
public record ClusterFeatures(String metadataVersion, Map<String, Short> finalized, String unreadBecause) {

	/** The transactions protocol: 2 is KIP-890's transactions v2, 0 or 1 the protocol before it. */
	public static final String TRANSACTION_VERSION = "transaction.version";

	/** The group protocols: 1 or more offers KIP-848's consumer group protocol. */
	public static final String GROUP_VERSION = "group.version";

	/** Share groups (KIP-932): 1 or more offers them. */
	public static final String SHARE_VERSION = "share.version";

	/** The metadata version, whose level names a release line. */
	public static final String METADATA_VERSION = "metadata.version";

	public ClusterFeatures {
		finalized = Collections.unmodifiableMap(new TreeMap<>(finalized));
	}

	/**
	 * Ask a cluster for its finalized features.
	 * @param admin an admin client connected to the cluster
	 * @param timeout the longest to wait for the answer
	 * @return the features, or {@link #unread(String) unread} with the reason when the
	 * cluster did not answer in time or refused
	 */
	public static ClusterFeatures read(Admin admin, Duration timeout) {
		try {
			FeatureMetadata metadata = admin
				.describeFeatures(new DescribeFeaturesOptions().timeoutMs((int) timeout.toMillis()))
				.featureMetadata()
				.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			Map<String, Short> levels = new TreeMap<>();
			metadata.finalizedFeatures().forEach((name, range) -> levels.put(name, range.maxVersionLevel()));
			return of(levels);
		}
		catch (ExecutionException ex) {
			return unread(ex.getCause().toString());
		}
		catch (TimeoutException ex) {
			return unread("no answer within " + timeout);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return unread("interrupted");
		}
	}

	/**
	 * Return the features of the given finalized levels.
	 * @param finalized each finalized feature's level
	 * @return the features
	 */
	public static ClusterFeatures of(Map<String, Short> finalized) {
		return new ClusterFeatures(MetadataVersions.name(finalized.getOrDefault(METADATA_VERSION, (short) 0)), finalized,
				null);
	}

	/**
	 * Return features that could not be read.
	 * @param why the reason, as the cluster or the client gave it
	 * @return the unread features
	 */
	public static ClusterFeatures unread(String why) {
		return new ClusterFeatures(null, Map.of(), why);
	}

	/**
	 * Whether the features were read.
	 * @return whether the cluster answered
	 */
	public boolean isRead() {
		return this.unreadBecause == null;
	}

	/**
	 * Return a finalized feature's level, 0 when it is not finalized (the behaviour before
	 * the feature existed).
	 * @param feature the feature's name
	 * @return its level
	 */
	public short level(String feature) {
		return this.finalized.getOrDefault(feature, (short) 0);
	}

	/**
	 * Return the features as a log line:
	 * {@code metadata.version=4.4-IV2 group.version=1 transaction.version=2}.
	 * @return the description
	 */
	@Override
	public String toString() {
		if (!isRead()) {
			return "features not read (" + this.unreadBecause + ")";
		}
		StringBuilder description = new StringBuilder(METADATA_VERSION).append('=').append(this.metadataVersion);
		this.finalized.forEach((name, level) -> {
			if (!name.equals(METADATA_VERSION)) {
				description.append(' ').append(name).append('=').append(level);
			}
		});
		return description.toString();
	}

}
