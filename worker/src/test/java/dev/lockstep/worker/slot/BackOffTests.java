package dev.lockstep.worker.slot;

import java.time.Duration;

import dev.lockstep.worker.WorkerSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BackOffTests {

	private final BackOff backOff = new BackOff(new WorkerSettings.Recovery(Duration.ofSeconds(30), Duration.ofSeconds(30)));

	@Test
	void anInterruptedWaitEndsWaitingButIsNoStopRequest() {
		Thread.currentThread().interrupt();
		long started = System.nanoTime();
		this.backOff.await();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
		// Cleared here, so the interrupt does not leak into other tests.
		assertThat(Thread.interrupted()).as("the interrupt is kept for the thread's owner").isTrue();
		assertThat(this.backOff.isStopped()).isTrue();
		assertThat(this.backOff.isStopRequested()).as("the slot goes on: only a stop request ends it").isFalse();
	}

	@Test
	void aStopRequestEndsWaitingForGood() {
		this.backOff.stop();
		long started = System.nanoTime();
		this.backOff.await();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
		assertThat(this.backOff.isStopped()).isTrue();
		assertThat(this.backOff.isStopRequested()).isTrue();
	}

}
