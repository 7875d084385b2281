package dev.lockstep.autoconfigure.health;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.lockstep.worker.ClusterFeatures;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import org.springframework.boot.health.contributor.Health;

/**
 * Kafka health: the cluster answers {@code describeCluster} within a bounded time (node
 * count, cluster id and its finalized features as details), and the transaction state
 * log has a leader for every partition, since transactional workers cannot commit
 * without one (checked when the client may describe that topic, which a worker's least
 * privilege does not grant). Checked in the background: a health request answers within
 * a bounded time with the broker down.
 */
public class KafkaClusterHealthIndicator extends BackgroundHealthIndicator {

	// Kafka's name for it; the constant Kafka keeps is not public API.
	private static final String TRANSACTION_STATE_LOG = "__transaction_state";

	private final Map<String, Object> adminConfig;

	private final Duration timeout;

	private volatile Admin admin;

	/**
	 * Create the indicator.
	 * @param adminConfig admin client properties (connection and security)
	 * @param timeout the longest a check waits for the cluster
	 */
	public KafkaClusterHealthIndicator(Map<String, Object> adminConfig, Duration timeout) {
		this(adminConfig, timeout, DEFAULT_ANSWER_WITHIN);
	}

	/**
	 * Create the indicator.
	 * @param adminConfig admin client properties (connection and security)
	 * @param timeout the longest a check waits for the cluster
	 * @param answerWithin the longest a health request waits for the check in flight
	 */
	public KafkaClusterHealthIndicator(Map<String, Object> adminConfig, Duration timeout, Duration answerWithin) {
		super("Kafka", answerWithin);
		this.adminConfig = adminConfig;
		this.timeout = timeout;
	}

	@Override
	protected void check(Health.Builder builder) throws Exception {
		Admin client = admin();
		int timeoutMs = (int) this.timeout.toMillis();
		DescribeClusterResult cluster = client.describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMs));
		int nodes = cluster.nodes().get(timeoutMs, TimeUnit.MILLISECONDS).size();
		builder.withDetail("clusterId", cluster.clusterId().get(timeoutMs, TimeUnit.MILLISECONDS))
			.withDetail("nodes", nodes)
			.withDetail("features", ClusterFeatures.read(client, this.timeout));
		try {
			TopicDescription log = client
				.describeTopics(List.of(TRANSACTION_STATE_LOG), new DescribeTopicsOptions().timeoutMs(timeoutMs))
				.allTopicNames()
				.get(timeoutMs, TimeUnit.MILLISECONDS)
				.get(TRANSACTION_STATE_LOG);
			long leaderless = log.partitions().stream().filter((partition) -> partition.leader() == null).count();
			builder.withDetail("transactionStateLog", (leaderless == 0) ? "usable"
					: leaderless + " of " + log.partitions().size() + " partitions without a leader");
			if (leaderless > 0) {
				builder.down();
				return;
			}
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof TopicAuthorizationException) {
				// A worker's least privilege does not include it: the workers' own health
				// says whether their transactions commit.
				builder.withDetail("transactionStateLog",
						"not checked (DESCRIBE on topic " + TRANSACTION_STATE_LOG + " not granted)");
			}
			else if (ex.getCause() instanceof UnknownTopicOrPartitionException) {
				builder.withDetail("transactionStateLog", "not created yet (created by the first transaction)");
			}
			else {
				throw ex;
			}
		}
		builder.up();
	}

	private Admin admin() {
		Admin current = this.admin;
		if (current == null) {
			synchronized (this) {
				current = this.admin;
				if (current == null) {
					current = Admin.create(this.adminConfig);
					this.admin = current;
				}
			}
		}
		return current;
	}

	@Override
	public void destroy() {
		super.destroy();
		Admin current = this.admin;
		if (current != null) {
			current.close(Duration.ofSeconds(5));
		}
	}

}
