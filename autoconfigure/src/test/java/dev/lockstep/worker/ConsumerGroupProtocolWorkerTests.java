package dev.lockstep.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.lockstep.worker.WorkerSettings.Bounds;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.Membership;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.GroupType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every {@link WorkerTests} scenario under the consumer group protocol of KIP-848
 * ({@code group.protocol=consumer}): assignment by the broker, the rebalance callbacks
 * (commit before revocation), {@code groupMetadata()} fencing, a second instance joining
 * and the first leaving. The slots are static members, which is not the default under
 * this protocol (the e2e matrix runs the default): a second instance with the same
 * transactional id is then refused its members' ids until the first stops, and joins
 * again ({@link FailureCategory#REJOIN}).
 */
class ConsumerGroupProtocolWorkerTests extends WorkerTests {

	@Override
	Map<String, Object> groupProtocol() {
		return Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
	}

	@Override
	Membership membership() {
		return Membership.STATIC;
	}

	@Override
	GroupType groupType() {
		return GroupType.CONSUMER;
	}

	@Test
	void secondInstanceRefusedItsStaticMembersJoinsOnceTheFirstStops() {
		kafka.createTopics(1, this.input, this.output);
		WorkerSettings settings = settings(1, Bounds.NONE, Mode.BLOCK, new TransactionSizing(500, Duration.ofMillis(100)),
				Map.of());
		Worker first = start(settings);
		kafka.produce(List.of(order("order-1", 1, "paid", 1)));
		await().until(() -> first.state().committedRecords() == 1);
		// The first, idle, keeps its member id: the group refuses the second's, again and
		// again, while its producer (initialised first) has fenced the first's.
		Worker second = start(settings);
		await().until(() -> !second.state().slots().get(0).recentErrors().isEmpty());
		kafka.produce(List.of(order("order-2", 2, "paid", 2)));
		await().until(() -> first.state().status() == WorkerStatus.FENCED);
		await().until(() -> second.state().committedRecords() == 1);
		assertThat(second.state().slots().get(0).recentErrors()).anyMatch((error) -> error.contains("REJOIN"));
		assertThat(kafka.readCommitted(this.output, 2)).extracting(WorkerTests::key).containsExactly("order-1", "order-2");
	}

}
