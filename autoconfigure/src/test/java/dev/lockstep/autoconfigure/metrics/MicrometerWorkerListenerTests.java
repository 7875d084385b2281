package dev.lockstep.autoconfigure.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.lockstep.worker.FailureCategory;
import dev.lockstep.worker.OffsetReset;
import dev.lockstep.worker.RedriveResult;
import dev.lockstep.worker.SlotState.BlockedRecord;
import dev.lockstep.worker.WorkerListener.CommitOutcome;
import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each event a worker reports becomes in Micrometer (the worker module's tests check
 * which events a worker reports: what was committed, not what was attempted).
 */
class MicrometerWorkerListenerTests {

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final MicrometerWorkerListener listener = new MicrometerWorkerListener(this.meters);

	@Test
	void everyMeterIsAtZeroFromTheWorkersCreation() {
		this.listener.workerCreated("orders");
		for (String outcome : new String[] { "processed", "tombstone", "quarantined", "rejected" }) {
			assertThat(count("lockstep.worker.records", "outcome", outcome)).as(outcome).isZero();
		}
		for (FailureCategory category : FailureCategory.values()) {
			assertThat(count("lockstep.worker.recoveries", "category", category.name().toLowerCase())).isZero();
		}
		assertThat(count("lockstep.worker.transactions", "result", "committed")).isZero();
		assertThat(count("lockstep.worker.transactions", "result", "aborted")).isZero();
		assertThat(this.meters.get("lockstep.worker.records.out").counter().count()).isZero();
		assertThat(this.meters.get("lockstep.worker.processing.duration").timer().count()).isZero();
		assertThat(this.meters.get("lockstep.worker.retries").counter().count()).isZero();
		assertThat(count("lockstep.worker.retries.exhausted", "outcome", "quarantine")).isZero();
		assertThat(count("lockstep.worker.retries.exhausted", "outcome", "block")).isZero();
		assertThat(this.meters.get("lockstep.worker.redriven").counter().count()).isZero();
		assertThat(this.meters.get("lockstep.worker.redrive.kept").counter().count()).isZero();
		assertThat(this.meters.get("lockstep.worker.requarantined").counter().count()).isZero();
		for (String target : new String[] { "timestamp", "offset", "end" }) {
			assertThat(count("lockstep.worker.offset.resets", "target", target)).as(target).isZero();
		}
	}

	@Test
	void aCommittedTransactionCountsItsRecordsByOutcomeAndItsDurations() {
		this.listener.committed("orders", 0,
				new CommitOutcome(10, 2, 1, 1, 9, Duration.ofMillis(30), Duration.ofMillis(5)));
		assertThat(count("lockstep.worker.records", "outcome", "processed")).isEqualTo(8);
		assertThat(count("lockstep.worker.records", "outcome", "tombstone")).isEqualTo(2);
		assertThat(count("lockstep.worker.records", "outcome", "quarantined")).isEqualTo(1);
		assertThat(this.meters.get("lockstep.worker.requarantined").counter().count()).isEqualTo(1);
		assertThat(this.meters.get("lockstep.worker.records.out").counter().count()).isEqualTo(9);
		assertThat(count("lockstep.worker.transactions", "result", "committed")).isOne();
		assertThat(this.meters.get("lockstep.worker.transaction.duration").timer().totalTime(TimeUnit.MILLISECONDS))
			.isEqualTo(30);
		assertThat(this.meters.get("lockstep.worker.commit.duration").timer().totalTime(TimeUnit.MILLISECONDS))
			.isEqualTo(5);
	}

	@Test
	void abortsRecoveriesAndRejectionsAreCountedApart() {
		this.listener.workerCreated("orders");
		this.listener.aborted("orders", 0, 20);
		this.listener.recovered("orders", 0, FailureCategory.ABORTABLE);
		this.listener.rejected("orders", 0, new BlockedRecord("in", 0, 7, "bad bytes"));
		assertThat(count("lockstep.worker.transactions", "result", "aborted")).isOne();
		assertThat(count("lockstep.worker.recoveries", "category", "abortable")).isOne();
		assertThat(count("lockstep.worker.records", "outcome", "rejected")).isOne();
		assertThat(count("lockstep.worker.records", "outcome", "processed")).isZero();
	}

	@Test
	void retriesAreCountedAndSpentBudgetsByWhatBecomesOfTheRecord() {
		this.listener.workerCreated("orders");
		this.listener.recordRetried("orders", 0, 1);
		this.listener.recordRetried("orders", 0, 2);
		this.listener.retriesExhausted("orders", 0, Mode.QUARANTINE);
		assertThat(this.meters.get("lockstep.worker.retries").counter().count()).isEqualTo(2);
		assertThat(count("lockstep.worker.retries.exhausted", "outcome", "quarantine")).isOne();
		assertThat(count("lockstep.worker.retries.exhausted", "outcome", "block")).isZero();
	}

	@Test
	void aRedriveCountsWhatItSentBackAndWhatItKept() {
		this.listener.workerCreated("orders");
		this.listener.redriven("orders", new RedriveResult(40, 2, 7, 1, Map.of("orders", 40L)));
		assertThat(this.meters.get("lockstep.worker.redriven").counter().count()).isEqualTo(40);
		assertThat(this.meters.get("lockstep.worker.redrive.kept").counter().count()).isEqualTo(2);
	}

	@Test
	void anOffsetResetCountsThePartitionsItMovedByTarget() {
		this.listener.offsetsReset("orders", 0, OffsetReset.toEnd(),
				Map.of(new TopicPartition("in", 0), 10L, new TopicPartition("in", 1), 12L));
		this.listener.offsetsReset("orders", 1, OffsetReset.toTimestamp(Instant.EPOCH),
				Map.of(new TopicPartition("in", 2), 0L));
		assertThat(count("lockstep.worker.offset.resets", "target", "end")).isEqualTo(2);
		assertThat(count("lockstep.worker.offset.resets", "target", "timestamp")).isOne();
	}

	@Test
	void aConcurrentSlotsRecordsAreTimedAndItsInFlightRecordsGauged() {
		this.listener.concurrentSlotCreated("orders", 0, () -> 3);
		this.listener.recordWaited("orders", 0, 1_000_000);
		this.listener.recordProcessed("orders", 0, 2_000_000);
		assertThat(this.meters.get("lockstep.worker.records.in.flight").tag("slot", "0").gauge().value()).isEqualTo(3);
		assertThat(this.meters.get("lockstep.worker.record.wait").timer().totalTime(TimeUnit.MILLISECONDS))
			.isEqualTo(1);
		assertThat(this.meters.get("lockstep.worker.processing.duration").timer().totalTime(TimeUnit.MILLISECONDS))
			.isEqualTo(2);
	}

	@Test
	void aPartitionsLagIsGaugedByTheSlotThatOwnsItUntilTheSlotGivesItUp() {
		TopicPartition first = new TopicPartition("in", 0);
		TopicPartition second = new TopicPartition("in", 1);
		this.listener.polled("orders", 0, 5, Map.of(first, 7L, second, 3L));
		assertThat(lag(first)).isEqualTo(7);
		assertThat(lag(second)).isEqualTo(3);
		// Another slot giving up the partition does not remove this slot's gauge.
		this.listener.partitionsRevoked("orders", 1, List.of(first));
		assertThat(lag(first)).isEqualTo(7);
		this.listener.partitionsRevoked("orders", 0, List.of(first));
		assertThat(this.meters.find("lockstep.worker.lag").tag("partition", "0").gauge()).isNull();
		// Its new owner gauges it again.
		this.listener.polled("orders", 1, 0, Map.of(first, 2L));
		assertThat(lag(first)).isEqualTo(2);
		assertThat(this.meters.find("lockstep.worker.lag").gauges()).hasSize(2);
	}

	@Test
	void aPartitionTakenOverBeforeItsLossIsHeardKeepsItsGaugeWhenTheLossArrives() {
		TopicPartition partition = new TopicPartition("in", 0);
		this.listener.polled("orders", 0, 0, Map.of(partition, 4L));
		// Slot 1 is assigned the partition slot 0 lost, and polls before slot 0 hears of it.
		this.listener.polled("orders", 1, 0, Map.of(partition, 6L));
		this.listener.partitionsRevoked("orders", 0, List.of(partition));
		assertThat(lag(partition)).isEqualTo(6);
		this.listener.polled("orders", 1, 0, Map.of(partition, 1L));
		assertThat(lag(partition)).isEqualTo(1);
	}

	private double lag(TopicPartition partition) {
		return this.meters.get("lockstep.worker.lag")
			.tag("worker", "orders")
			.tag("topic", partition.topic())
			.tag("partition", Integer.toString(partition.partition()))
			.gauge()
			.value();
	}

	private double count(String name, String tag, String value) {
		return this.meters.get(name).tag("worker", "orders").tag(tag, value).counter().count();
	}

}
