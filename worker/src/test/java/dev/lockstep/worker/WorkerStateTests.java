package dev.lockstep.worker;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerStateTests {

	@Test
	void aWorkerIsReadyOnceEverySlotIsPastItsStartAndInItsGroupPartitionsOrNot() {
		assertThat(state(slot(WorkerStatus.STARTING, false), slot(WorkerStatus.RUNNING, true)).isReady()).isFalse();
		assertThat(state(slot(WorkerStatus.RUNNING, true), slot(WorkerStatus.RUNNING, false)).isReady())
			.as("a consumer not yet in its group").isFalse();
		assertThat(state(slot(WorkerStatus.RUNNING, true), new SlotState(1, "tx-1", WorkerStatus.RUNNING, true, null,
				null, 0, Map.of(), null, Map.of(), 0, List.of())).isReady())
			.as("a member without partitions (more members than partitions)").isTrue();
		assertThat(state().isReady()).as("no slot").isFalse();
	}

	private static WorkerState state(SlotState... slots) {
		return new WorkerState("w", InstanceIdentity.generated(), ClusterFeatures.unread("test"), WorkerState.summarize(List.of(slots)),
				List.of(slots));
	}

	private static SlotState slot(WorkerStatus status, boolean joined) {
		return new SlotState(0, "tx-0", status, joined, null, null, 0, Map.of("in-0", 0L), null, Map.of(), 0,
				List.of());
	}

}
