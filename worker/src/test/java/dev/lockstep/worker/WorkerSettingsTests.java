package dev.lockstep.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.lockstep.worker.WorkerSettings.Bounds;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy;
import dev.lockstep.worker.WorkerSettings.Membership;
import dev.lockstep.worker.WorkerSettings.Ordering;
import dev.lockstep.worker.WorkerSettings.Recovery;
import dev.lockstep.worker.WorkerSettings.Retry;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import dev.lockstep.worker.observation.WorkerObservations;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

class WorkerSettingsTests {

	private static WorkerSettings.Builder worker() {
		return WorkerSettings.builder("w").sourceTopics("in").codecs(MockSlot.strings());
	}

	@Test
	void whatIsNotSetHasItsDefault() {
		WorkerSettings settings = worker().build();
		assertThat(settings.concurrency()).isEqualTo(1);
		assertThat(settings.pollTimeout()).isEqualTo(Duration.ofMillis(100));
		assertThat(settings.transaction())
			.isEqualTo(new TransactionSizing(50_000, Duration.ofMillis(100), Duration.ofSeconds(10)));
		assertThat(settings.invalidInput()).isEqualTo(InvalidInputPolicy.BLOCK);
		assertThat(settings.invalidInput().mode()).isEqualTo(InvalidInputPolicy.Mode.BLOCK);
		assertThat(settings.recovery()).isEqualTo(new Recovery(Duration.ofMillis(100), Duration.ofSeconds(10), 5));
		assertThat(settings.retry()).isEqualTo(new Retry(1, Duration.ofSeconds(1), 2, Duration.ofSeconds(30), 0.1,
				InvalidInputPolicy.Mode.BLOCK, List.of()));
		assertThat(settings.retry().isEnabled()).isFalse();
		assertThat(settings.bounds()).isEqualTo(Bounds.NONE);
		assertThat(settings.shutdownTimeout()).isEqualTo(Duration.ofSeconds(30));
		assertThat(settings.ordering()).isEqualTo(Ordering.PARTITION);
		assertThat(settings.maxInFlight()).isEqualTo(1);
		assertThat(settings.observations()).isSameAs(WorkerObservations.NONE);
		assertThat(settings.instance().kind()).as("resolved from this JVM's environment")
			.isEqualTo(InstanceIdentity.resolve(System.getenv()).kind());
		assertThat(settings.membership()).isEqualTo(Membership.defaultFor(Map.of(), settings.instance()));
		assertThat(settings.groupId()).isEqualTo("w");
		assertThat(settings.transactionalId()).isEqualTo("w");
		assertThat(settings.consumerProperties()).containsEntry("auto.offset.reset", "earliest");
		assertThat(settings.producerProperties()).containsEntry("batch.size", 128 * 1024);
		assertThat(settings.producerMaxBlock()).as("half of what the timeout leaves after the interval")
			.isEqualTo(Duration.ofMillis(4_950));
	}

	@Test
	void aRetryBudgetOutOfRangeOrQuarantiningWithoutATopicIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> retry(0, 1.0, 0.1))
			.withMessageContaining("attempts must be at least 1");
		assertThatIllegalArgumentException().isThrownBy(() -> retry(3, 0.5, 0.1))
			.withMessageContaining("multiplier must be at least 1");
		assertThatIllegalArgumentException().isThrownBy(() -> retry(3, 2, 1.5))
			.withMessageContaining("jitter must be from 0 to 1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Retry(3, Duration.ofSeconds(2), 2, Duration.ofSeconds(1), 0,
					InvalidInputPolicy.Mode.BLOCK, List.of()))
			.withMessageContaining("back-off must be from 0 up to its maximum");
		Retry quarantining = new Retry(3, Duration.ofSeconds(1), 2, Duration.ofSeconds(5), 0,
				InvalidInputPolicy.Mode.QUARANTINE, List.of());
		assertThatIllegalArgumentException().isThrownBy(() -> worker().retry(quarantining).build())
			.withMessageContaining("has no quarantine topic");
		assertThat(worker().retry(quarantining)
			.invalidInput(new InvalidInputPolicy(InvalidInputPolicy.Mode.BLOCK, "quarantine"))
			.build()
			.retry()).isEqualTo(quarantining);
	}

	private static Retry retry(int attempts, double multiplier, double jitter) {
		return new Retry(attempts, Duration.ofSeconds(1), multiplier, Duration.ofSeconds(5), jitter,
				InvalidInputPolicy.Mode.BLOCK, List.of());
	}

	@Test
	void idsDefaultToTheNameAndTheGroupAndWhatIsSetWins() {
		assertThat(worker().groupId("g").build().transactionalId()).isEqualTo("g");
		WorkerSettings own = worker().groupId("g")
			.transactionalId("tx")
			.consumerProperties(Map.of("auto.offset.reset", "latest"))
			.producerProperties(Map.of("batch.size", 1024, "max.block.ms", "3000"))
			.build();
		assertThat(own.transactionalId()).isEqualTo("tx");
		assertThat(own.consumerProperties()).containsEntry("auto.offset.reset", "latest");
		assertThat(own.producerProperties()).containsEntry("batch.size", 1024);
		assertThat(own.producerMaxBlock()).isEqualTo(Duration.ofSeconds(3));
		assertThat(worker().transaction(new TransactionSizing(10, Duration.ofSeconds(5), Duration.ofSeconds(1)))
			.build()
			.producerMaxBlock()).as("a timeout that leaves nothing: the client's default").isEqualTo(Duration.ofMinutes(1));
	}

	@Test
	void aWorkerWithoutTopicsOrCodecsIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> WorkerSettings.builder("w").build())
			.withMessageContaining("Worker 'w' consumes no topic");
		assertThatNullPointerException()
			.isThrownBy(() -> WorkerSettings.builder("w").sourceTopics("in").build())
			.withMessageContaining("Worker 'w' has no codecs");
	}

	@Test
	void aSlotsTransactionalIdIsTheBaseTheInstanceAndTheSlot() {
		WorkerSettings settings = worker().transactionalId("payments")
			.instance(InstanceIdentity.configured("eu-1", "test"))
			.build();
		assertThat(settings.transactionalId(0)).isEqualTo("payments-eu-1-0");
		WorkerSettings generated = worker().transactionalId("payments").instance(InstanceIdentity.generated()).build();
		WorkerSettings replica = worker().transactionalId("payments").instance(InstanceIdentity.generated()).build();
		assertThat(generated.transactionalId(0)).as("identical configuration, another replica")
			.isNotEqualTo(replica.transactionalId(0))
			.startsWith("payments-")
			.endsWith("-0");
	}

	@Test
	void aBaseTemplatedWithThePodsOrdinalKeepsItsIds() {
		InstanceIdentity ordinal = InstanceIdentity.resolve(Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1", "HOSTNAME",
				"normalizer-2"));
		assertThat(worker().transactionalId("normalizer-pod2").instance(ordinal).build().transactionalId(1))
			.isEqualTo("normalizer-pod2-1");
		assertThat(worker().transactionalId("cookbook").instance(ordinal).build().transactionalId(1))
			.isEqualTo("cookbook-normalizer-2-1");
	}

	@Test
	void staticMembersNeedAStableIdentityAndAreTheDefaultOnlyWithOne() {
		assertThat(worker().instance(InstanceIdentity.generated()).build().membership()).isEqualTo(Membership.DYNAMIC);
		assertThat(worker().instance(InstanceIdentity.configured("a", "test")).build().membership())
			.isEqualTo(Membership.STATIC);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> worker().instance(InstanceIdentity.generated()).membership(Membership.STATIC).build())
			.withMessageContaining("cannot have static members with instance id")
			.withMessageContaining("generated");
	}

	@Test
	void aDefaultMembershipFollowsTheGroupProtocolThroughToBuilder() {
		WorkerSettings classic = worker().instance(InstanceIdentity.configured("a", "test")).build();
		assertThat(classic.toBuilder().consumerProperties(Map.of("group.protocol", "consumer")).build().membership())
			.isEqualTo(Membership.DYNAMIC);
		WorkerSettings dynamic = worker().membership(Membership.DYNAMIC).build();
		assertThat(dynamic.toBuilder().build().membership()).as("one that was set").isEqualTo(Membership.DYNAMIC);
	}

	@Test
	void maxInFlightDefaultsByOrderingAndIsOneUnderPartitionOrderWhateverIsSet() {
		WorkerSettings key = worker().ordering(Ordering.KEY).build();
		assertThat(key.maxInFlight()).isEqualTo(WorkerSettings.DEFAULT_MAX_IN_FLIGHT);
		assertThat(key.toBuilder().maxInFlight(8).build().maxInFlight()).isEqualTo(8);
		assertThat(key.toBuilder().ordering(Ordering.PARTITION).build().maxInFlight()).isEqualTo(1);
		WorkerSettings partition = worker().build();
		assertThat(partition.toBuilder().ordering(Ordering.NONE).build().maxInFlight())
			.isEqualTo(WorkerSettings.DEFAULT_MAX_IN_FLIGHT);
		assertThat(worker().maxInFlight(4).build().maxInFlight()).isEqualTo(1);
		assertThatIllegalArgumentException().isThrownBy(() -> worker()
			.ordering(Ordering.KEY)
			.maxInFlight(0)
			.build()).withMessageContaining("Max in flight must be at least 1");
	}

	@Test
	void toBuilderKeepsEverySetting() {
		WorkerSettings settings = worker()
			.sourceTopics("a", "b")
			.destination("out")
			.groupId("g")
			.transactionalId("tx")
			.consumerProperties(Map.of("group.protocol", "consumer"))
			.producerProperties(Map.of("linger.ms", 5))
			.concurrency(3)
			.pollTimeout(Duration.ofMillis(20))
			.transaction(new TransactionSizing(10, Duration.ofSeconds(1), Duration.ofSeconds(20)))
			.invalidInput(new InvalidInputPolicy(InvalidInputPolicy.Mode.QUARANTINE, "q"))
			.recovery(new Recovery(Duration.ofMillis(5), Duration.ofSeconds(1), 2))
			.bounds(new Bounds(100, Duration.ofSeconds(9)))
			.shutdownTimeout(Duration.ofSeconds(3))
			.ordering(Ordering.KEY)
			.maxInFlight(12)
			.build();
		assertThat(settings.toBuilder().build()).isEqualTo(settings);
		assertThat(settings.membership()).as("the consumer protocol's default").isEqualTo(Membership.DYNAMIC);
	}

}
