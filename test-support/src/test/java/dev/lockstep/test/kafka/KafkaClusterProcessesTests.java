package dev.lockstep.test.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class KafkaClusterProcessesTests {

	@Test
	void threeNodeClusterKeepsTransactionsWorkingWithOneNodeKilled() throws Exception {
		try (KafkaClusterProcesses cluster = KafkaClusterProcesses.startThreeNodes()) {
			assertThat(cluster.nodes()).hasSize(3);
			assertThat(cluster.bootstrapServers().split(",")).hasSize(3);
			TransactionalRoundTrip replicated = new TransactionalRoundTrip(cluster);
			replicated.createTopics();
			try (Admin admin = replicated.admin()) {
				TopicPartitionInfo partition = describe(admin, replicated.output()).partitions().get(0);
				assertThat(partition.replicas()).hasSize(3);
			}

			cluster.kill(List.of(cluster.node(2)));
			new TransactionalRoundTrip(cluster).assertCommittedVisibleAndAbortedInvisible();
			try (Admin admin = replicated.admin()) {
				// Created by the first transaction, with the cluster's replication settings.
				assertThat(describe(admin, "__transaction_state").partitions().get(0).replicas()).hasSize(3);
			}

			cluster.restart(List.of(cluster.node(2)));
			try (Admin admin = replicated.admin()) {
				assertThat(admin.describeCluster().nodes().get()).hasSize(3);
				admin.createTopics(List.of(new NewTopic("after-restart", Optional.of(1), Optional.empty())))
					.all()
					.get();
				assertThat(describe(admin, "after-restart").partitions().get(0).replicas()).hasSize(3);
			}
		}
	}

	// A topic just created, or a node just back, may not be in every node's metadata yet
	// (seen on a loaded machine: UnknownTopicOrPartitionException): ask until it is.
	private static TopicDescription describe(Admin admin, String topic) {
		return await().atMost(Duration.ofSeconds(60))
			.ignoreExceptionsInstanceOf(ExecutionException.class)
			.until(() -> admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic), Objects::nonNull);
	}

}
