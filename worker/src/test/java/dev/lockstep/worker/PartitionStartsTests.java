package dev.lockstep.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.lockstep.worker.WorkerSettings.InvalidInputPolicy.Mode;
import dev.lockstep.worker.WorkerSettings.TransactionSizing;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Where a slot reads a partition from when the group's answer decides it: never below an
 * offset this process committed, from the group's offset when asked again, else where
 * {@code auto.offset.reset} says (the consumer runs with {@code none}).
 */
class PartitionStartsTests {

	private static final TopicPartition P0 = new TopicPartition("in", 0);

	private static final TopicPartition P1 = new TopicPartition("in", 1);

	private static final Instant NOW = Instant.parse("2026-12-06T07:00:00Z");

	private final CommittedOffsets committed = new CommittedOffsets();

	private final RewindPoints rewindPoints = new RewindPoints();

	private final SlotMonitor monitor = new SlotMonitor(0, "tx-i-0", Clock.fixed(NOW, ZoneOffset.UTC), 3);

	private final Map<TopicPartition, Long> searchedTimes = new HashMap<>();

	// The broker's ListOffsets by time: P0 has a record of the last hour at offset 12, P1 none.
	private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("none") {

		@Override
		public synchronized Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> times) {
			PartitionStartsTests.this.searchedTimes.putAll(times);
			Map<TopicPartition, OffsetAndTimestamp> found = new HashMap<>();
			found.put(P0, new OffsetAndTimestamp(12, times.get(P0)));
			found.put(P1, null);
			return found;
		}

	};

	PartitionStartsTests() {
		this.consumer.assign(List.of(P0, P1));
		this.consumer.updateBeginningOffsets(Map.of(P0, 5L, P1, 3L));
		this.consumer.updateEndOffsets(Map.of(P0, 20L, P1, 30L));
	}

	@Test
	void partitionsNothingContradictsStartWhereAutoOffsetResetSays() {
		starts("earliest").noCommittedOffset(this.consumer, noOffset(P0, P1));
		assertThat(positions()).containsExactly(5L, 3L);
		starts("latest").noCommittedOffset(this.consumer, noOffset(P0, P1));
		assertThat(positions()).containsExactly(20L, 30L);
		assertThat(this.monitor.snapshot().recentErrors()).isEmpty();
	}

	@Test
	void byDurationStartsAtTheFirstRecordOfTheDurationOrAtTheEndWhenItHasNone() {
		starts("by_duration:PT1H").noCommittedOffset(this.consumer, noOffset(P0, P1));
		assertThat(positions()).containsExactly(12L, 30L);
		long hourAgo = NOW.minus(Duration.ofHours(1)).toEpochMilli();
		assertThat(this.searchedTimes).containsExactlyInAnyOrderEntriesOf(Map.of(P0, hourAgo, P1, hourAgo));
	}

	@Test
	void aPartitionThisProcessCommittedIsReadFromWhereItCommittedNotStartedOver() {
		this.committed.committed(Map.of(P1, new OffsetAndMetadata(17)));
		this.committed.committed(Map.of(P1, new OffsetAndMetadata(16)));
		starts("earliest").noCommittedOffset(this.consumer, noOffset(P0, P1));
		assertThat(positions()).as("P0 has no floor, P1 keeps the highest commit").containsExactly(5L, 17L);
		assertThat(this.monitor.snapshot().recentErrors()).singleElement()
			.asString()
			.contains("group 'group' answered no committed offset for in-1, below the offset 17 this process "
					+ "committed for it: reading from 17");
	}

	@Test
	void anOffsetTheGroupGivesWhenAskedAgainIsWhereThePartitionStartsWhenAboveTheFloor() {
		this.committed.committed(Map.of(P0, new OffsetAndMetadata(9), P1, new OffsetAndMetadata(6)));
		this.consumer.commitSync(Map.of(P0, new OffsetAndMetadata(11), P1, new OffsetAndMetadata(4)));
		starts("earliest").noCommittedOffset(this.consumer, noOffset(P0, P1));
		assertThat(positions()).containsExactly(11L, 6L);
	}

	@Test
	void recordsAPollReturnsBelowAFloorAreDroppedAndTheirPartitionReadOnFromTheFloor() {
		this.committed.committed(Map.of(P0, new OffsetAndMetadata(9)));
		ConsumerRecords<byte[], byte[]> polled = records(Map.of(P0, List.of(3L, 4L, 9L, 10L), P1, List.of(2L, 3L)));
		this.consumer.seek(P0, 11);
		ConsumerRecords<byte[], byte[]> kept = starts("earliest").atOrAboveFloors(this.consumer, polled);
		assertThat(kept.partitions()).containsExactly(P1);
		assertThat(kept.records(P1)).hasSize(2);
		assertThat(kept.nextOffsets()).containsOnlyKeys(P1);
		assertThat(this.consumer.position(P0)).isEqualTo(9L);
		assertThat(this.rewindPoints.points()).as("a rewind goes back to the floor, not to the answer")
			.containsEntry(P0, 9L);
		assertThat(this.monitor.snapshot().recentErrors()).singleElement()
			.asString()
			.contains("group 'group' answered offset 3 for in-0, below the offset 9 this process committed for it: "
					+ "reading from 9");
	}

	@Test
	void aHigherOffsetTheGroupGivesWhenAskedAgainWinsOverTheFloor() {
		this.committed.committed(Map.of(P0, new OffsetAndMetadata(9)));
		this.consumer.commitSync(Map.of(P0, new OffsetAndMetadata(14)));
		starts("earliest").atOrAboveFloors(this.consumer, records(Map.of(P0, List.of(3L))));
		assertThat(this.consumer.position(P0)).isEqualTo(14L);
		assertThat(this.rewindPoints.points()).containsEntry(P0, 14L);
	}

	@Test
	void recordsAtOrAboveTheirFloorsAreReturnedAsPolled() {
		this.committed.committed(Map.of(P0, new OffsetAndMetadata(9)));
		ConsumerRecords<byte[], byte[]> polled = records(Map.of(P0, List.of(9L, 10L), P1, List.of(0L)));
		assertThat(starts("earliest").atOrAboveFloors(this.consumer, polled)).isSameAs(polled);
	}

	@Test
	void noneLeavesThePartitionsWithoutAnOffsetAsTheConsumersFailure() {
		NoOffsetForPartitionException failure = noOffset(P0);
		assertThatExceptionOfType(NoOffsetForPartitionException.class)
			.isThrownBy(() -> starts("none").noCommittedOffset(this.consumer, failure))
			.isSameAs(failure);
		OffsetOutOfRangeException outOfRange = new OffsetOutOfRangeException("gone", Map.of(P0, 2L));
		assertThatExceptionOfType(OffsetOutOfRangeException.class)
			.isThrownBy(() -> starts("none").outOfRange(this.consumer, outOfRange))
			.isSameAs(outOfRange);
	}

	@Test
	void aPositionOutOfTheLogsRangeStartsWhereAutoOffsetResetSays() {
		starts("earliest").outOfRange(this.consumer, new OffsetOutOfRangeException("gone", Map.of(P0, 2L)));
		assertThat(this.consumer.position(P0)).isEqualTo(5L);
	}

	private PartitionStarts starts(String policy) {
		WorkerSettings settings = MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofSeconds(1)),
				MockSlot.strings())
			.toBuilder()
			.consumerProperties(Map.of("auto.offset.reset", policy))
			.build();
		return new PartitionStarts(SlotId.of(settings, 0), settings, this.committed, this.rewindPoints,
				this.monitor, Clock.fixed(NOW, ZoneOffset.UTC));
	}

	private static NoOffsetForPartitionException noOffset(TopicPartition... partitions) {
		return new NoOffsetForPartitionException(Set.of(partitions));
	}

	private static ConsumerRecords<byte[], byte[]> records(Map<TopicPartition, List<Long>> offsets) {
		Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> records = new HashMap<>();
		Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
		offsets.forEach((partition, list) -> {
			records.put(partition, list.stream()
				.map((offset) -> new ConsumerRecord<byte[], byte[]>(partition.topic(), partition.partition(), offset,
						null, null))
				.toList());
			next.put(partition, new OffsetAndMetadata(list.get(list.size() - 1) + 1));
		});
		return new ConsumerRecords<>(records, next);
	}

	private List<Long> positions() {
		return List.of(this.consumer.position(P0), this.consumer.position(P1));
	}

}
