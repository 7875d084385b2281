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
import org.junit.jupiter.api.Assumptions;
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
 * again ({@link FailureCategory#REJOIN}), while the first, which the group still counts
 * as the member, takes its transactional id back and carries on.
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

	/**
	 * Static members under this protocol: the group refuses a twin's members, so it waits
	 * (REJOIN, naming the instance id) instead of taking the transactional id from the
	 * first; {@link #secondInstanceRefusedItsStaticMembersJoinsOnceTheFirstStops()} shows it.
	 */
	@Override
	@Test
	void secondLiveInstanceWithTheSameTransactionalIdIsCaughtAndOneOfThemReportedFenced() {
		Assumptions.abort("static members under the consumer protocol: the group refuses the twin (REJOIN)");
	}

	@Test
	void secondInstanceRefusedItsStaticMembersJoinsOnceTheFirstStops() {
		kafka.createTopics(1, this.input, this.output);
		WorkerSettings settings = settings(1, Bounds.NONE, Mode.BLOCK, new TransactionSizing(500, Duration.ofMillis(100)),
				Map.of());
		Worker first = start(settings);
		kafka.produce(List.of(order("order-1", 1, "paid", 1)));
		await().until(() -> first.state().committedRecords() == 1);
		// The first keeps its member id: the group refuses the second's, again and again,
		// while its producer (initialised first) has fenced the first's.
		Worker second = start(settings);
		await().until(() -> second.state().slots().get(0).recentErrors().stream()
			.anyMatch((error) -> error.contains("REJOIN")));
		kafka.produce(List.of(order("order-2", 2, "paid", 2)));
		// The group says the first is the member: it takes its transactional id back and
		// carries on, the second waits.
		await().until(() -> first.state().committedRecords() == 2);
		assertThat(first.state().status()).isEqualTo(WorkerStatus.RUNNING);
		assertThat(second.state().committedRecords()).isZero();
		first.stop();
		kafka.produce(List.of(order("order-3", 3, "paid", 3)));
		await().until(() -> second.state().committedRecords() == 1);
		assertThat(kafka.readCommitted(this.output, 3)).extracting(WorkerTests::key)
			.containsExactly("order-1", "order-2", "order-3");
	}

}
