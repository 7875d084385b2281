package dev.lockstep.test.kafka;

import java.util.List;
import java.util.Optional;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

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

			cluster.node(2).kill();
			new TransactionalRoundTrip(cluster).assertCommittedVisibleAndAbortedInvisible();
			try (Admin admin = replicated.admin()) {
				// Created by the first transaction, with the cluster's replication settings.
				assertThat(describe(admin, "__transaction_state").partitions().get(0).replicas()).hasSize(3);
			}

			cluster.node(2).restart();
			try (Admin admin = replicated.admin()) {
				assertThat(admin.describeCluster().nodes().get()).hasSize(3);
				admin.createTopics(List.of(new NewTopic("after-restart", Optional.of(1), Optional.empty())))
					.all()
					.get();
				assertThat(describe(admin, "after-restart").partitions().get(0).replicas()).hasSize(3);
			}
		}
	}

	private static TopicDescription describe(Admin admin, String topic) throws Exception {
		return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
	}

}
