package dev.lockstep.worker.slot;

import java.time.Duration;
import java.util.Map;

import dev.lockstep.worker.ExactlyOnceClients;
import dev.lockstep.worker.InstanceIdentity;
import dev.lockstep.worker.MockSlot;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.Membership;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaSlotClientsTests {

	private final WorkerSettings settings = MockSlot.settings(Mode.BLOCK,
			new TransactionSizing(100, Duration.ofSeconds(1)), MockSlot.strings());

	@Test
	void aStaticSlotIsTheGroupMemberNamedByItsTransactionalId() {
		SlotId slot = SlotId.of(this.settings, 1);
		assertThat(this.settings.membership()).isEqualTo(Membership.STATIC);
		assertThat(new KafkaSlotClients(this.settings, slot).consumerProperties()).containsEntry("group.id", "group")
			.containsEntry("group.instance.id", "tx-i-1")
			.containsEntry("isolation.level", "read_committed")
			.containsEntry("enable.auto.commit", false);
		assertThat(new KafkaSlotClients(this.settings, slot).producerProperties()).containsEntry("transactional.id",
				"tx-i-1");
	}

	@Test
	void aDynamicSlotJoinsAsANewMemberEachTimeWhateverIdItWasGiven() {
		WorkerSettings dynamic = MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofSeconds(1)),
				MockSlot.strings())
			.toBuilder()
			.consumerProperties(Map.of("group.instance.id", "shared"))
			.concurrency(2)
			.membership(Membership.DYNAMIC)
			.build();
		assertThat(new KafkaSlotClients(dynamic, SlotId.of(dynamic, 0)).consumerProperties())
			.doesNotContainKey("group.instance.id");
	}

	@Test
	void slotsAreStaticMembersByDefaultOnlyUnderTheClassicProtocolWithAStableIdentity() {
		InstanceIdentity stable = InstanceIdentity.configured("i", "test");
		assertThat(Membership.defaultFor(Map.of("group.protocol", "CONSUMER"), stable)).isEqualTo(Membership.DYNAMIC);
		assertThat(Membership.defaultFor(Map.of("group.protocol", "classic"), stable)).isEqualTo(Membership.STATIC);
		assertThat(Membership.defaultFor(Map.of(), stable)).isEqualTo(Membership.STATIC);
		assertThat(Membership.defaultFor(Map.of(), InstanceIdentity.generated())).isEqualTo(Membership.DYNAMIC);
	}

	@Test
	void clientsResolveTheirBootstrapServersWhenBuiltOnEveryLineThatCouldDoOtherwise() {
		// Kafka 4.4 knows the key (KIP-909): held at 0. Earlier lines do not: left out, as
		// Kafka would warn of an unknown key.
		Map<String, Object> consumer = new KafkaSlotClients(this.settings, SlotId.of(this.settings, 0))
			.consumerProperties();
		Map<String, Object> producer = new KafkaSlotClients(this.settings, SlotId.of(this.settings, 0))
			.producerProperties();
		if (ConsumerConfig.configNames().contains(ExactlyOnceClients.BOOTSTRAP_RESOLVE_TIMEOUT)) {
			assertThat(consumer).containsEntry(ExactlyOnceClients.BOOTSTRAP_RESOLVE_TIMEOUT, 0);
			assertThat(producer).containsEntry(ExactlyOnceClients.BOOTSTRAP_RESOLVE_TIMEOUT, 0);
		}
		else {
			assertThat(consumer).doesNotContainKey(ExactlyOnceClients.BOOTSTRAP_RESOLVE_TIMEOUT);
			assertThat(producer).doesNotContainKey(ExactlyOnceClients.BOOTSTRAP_RESOLVE_TIMEOUT);
		}
	}

}
