package dev.lockstep.autoconfigure;

import java.util.List;

import dev.lockstep.worker.ClusterFeatures;
import dev.lockstep.worker.InstanceIdentity;
import dev.lockstep.worker.WorkerState;
import dev.lockstep.worker.WorkerStatus;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exit code of a worker service whose workers have all ended ({@link WorkerExit}); the
 * e2e suite runs it with the sample jar.
 */
class WorkerExitTests {

	@Test
	void completedWhenEveryWorkerStopped() {
		assertThat(WorkerExit.exitCode(List.of(state(WorkerStatus.STOPPED), state(WorkerStatus.STOPPED))))
			.isEqualTo(WorkerExit.COMPLETED);
	}

	@Test
	void fencedWhenAWorkerWasFencedAndNoneFailed() {
		assertThat(WorkerExit.exitCode(List.of(state(WorkerStatus.STOPPED), state(WorkerStatus.FENCED))))
			.isEqualTo(WorkerExit.FENCED);
	}

	@Test
	void failedWhenAnyWorkerFailedWhateverElseHappened() {
		assertThat(WorkerExit.exitCode(List.of(state(WorkerStatus.FENCED), state(WorkerStatus.FAILED),
				state(WorkerStatus.STOPPED)))).isEqualTo(WorkerExit.FAILED);
	}

	private static WorkerState state(WorkerStatus status) {
		return new WorkerState("worker-" + status, InstanceIdentity.generated(), ClusterFeatures.unread("test"), status, List.of());
	}

}
