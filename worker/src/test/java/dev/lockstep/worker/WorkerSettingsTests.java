package dev.lockstep.worker;

import java.time.Duration;
import java.util.Map;

import dev.lockstep.worker.WorkerSettings.Bounds;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy;
import dev.lockstep.worker.WorkerSettings.Membership;
import dev.lockstep.worker.WorkerSettings.Ordering;
import dev.lockstep.worker.WorkerSettings.Recovery;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class WorkerSettingsTests {

	@Test
	void whatIsNotSetHasItsDefault() {
		WorkerSettings settings = WorkerSettings.builder("w").sourceTopics("in").build();
		assertThat(settings.concurrency()).isEqualTo(1);
		assertThat(settings.pollTimeout()).isEqualTo(Duration.ofMillis(100));
		assertThat(settings.transaction())
			.isEqualTo(new TransactionSizing(50_000, Duration.ofMillis(100), Duration.ofSeconds(10)));
		assertThat(settings.invalidInput()).isEqualTo(InvalidInputPolicy.BLOCK);
		assertThat(settings.invalidInput().mode()).isEqualTo(InvalidInputPolicy.Mode.BLOCK);
		assertThat(settings.recovery()).isEqualTo(new Recovery(Duration.ofMillis(100), Duration.ofSeconds(10), 5));
		assertThat(settings.bounds()).isEqualTo(Bounds.NONE);
		assertThat(settings.shutdownTimeout()).isEqualTo(Duration.ofSeconds(30));
		assertThat(settings.ordering()).isEqualTo(Ordering.PARTITION);
		assertThat(settings.maxInFlight()).isEqualTo(1);
		assertThat(settings.observations()).isSameAs(WorkerObservations.NONE);
		assertThat(settings.membership()).isEqualTo(Membership.STATIC);
	}

	@Test
	void maxInFlightDefaultsByOrderingAndIsOneUnderPartitionOrderWhateverIsSet() {
		WorkerSettings key = WorkerSettings.builder("w").ordering(Ordering.KEY).build();
		assertThat(key.maxInFlight()).isEqualTo(WorkerSettings.DEFAULT_MAX_IN_FLIGHT);
		assertThat(key.toBuilder().maxInFlight(8).build().maxInFlight()).isEqualTo(8);
		assertThat(key.toBuilder().ordering(Ordering.PARTITION).build().maxInFlight()).isEqualTo(1);
		WorkerSettings partition = WorkerSettings.builder("w").build();
		assertThat(partition.toBuilder().ordering(Ordering.NONE).build().maxInFlight())
			.isEqualTo(WorkerSettings.DEFAULT_MAX_IN_FLIGHT);
		assertThat(WorkerSettings.builder("w").maxInFlight(4).build().maxInFlight()).isEqualTo(1);
		assertThatIllegalArgumentException().isThrownBy(() -> WorkerSettings.builder("w")
			.ordering(Ordering.KEY)
			.maxInFlight(0)
			.build()).withMessageContaining("Max in flight must be at least 1");
	}

	@Test
	void toBuilderKeepsEverySetting() {
		WorkerSettings settings = WorkerSettings.builder("w")
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
