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
 * Where a slot starts a partition its consumer (running with {@code auto.offset.reset=none})
 * found no position for: as the configured policy says, unless the group answers with an
 * offset when asked again or this process committed the partition.
 */
class SlotOffsetResetTests {

	private static final TopicPartition P0 = new TopicPartition("in", 0);

	private static final TopicPartition P1 = new TopicPartition("in", 1);

	private static final Instant NOW = Instant.parse("2026-12-06T07:00:00Z");

	private final CommittedOffsets committed = new CommittedOffsets();

	private final Map<TopicPartition, Long> searchedTimes = new HashMap<>();

	// The broker's ListOffsets by time: P0 has a record of the last hour at offset 12, P1 none.
	private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("none") {

		@Override
		public synchronized Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> times) {
			SlotOffsetResetTests.this.searchedTimes.putAll(times);
			Map<TopicPartition, OffsetAndTimestamp> found = new HashMap<>();
			found.put(P0, new OffsetAndTimestamp(12, times.get(P0)));
			found.put(P1, null);
			return found;
		}

	};

	SlotOffsetResetTests() {
		this.consumer.assign(List.of(P0, P1));
		this.consumer.updateBeginningOffsets(Map.of(P0, 5L, P1, 3L));
		this.consumer.updateEndOffsets(Map.of(P0, 20L, P1, 30L));
	}

	@Test
	void partitionsNothingContradictsStartWhereAutoOffsetResetSays() {
		reset("earliest").noCommittedOffset(this.consumer, noOffset(P0, P1));
		assertThat(positions()).containsExactly(5L, 3L);
		reset("latest").noCommittedOffset(this.consumer, noOffset(P0, P1));
		assertThat(positions()).containsExactly(20L, 30L);
	}

	@Test
	void byDurationStartsAtTheFirstRecordOfTheDurationOrAtTheEndWhenItHasNone() {
		reset("by_duration:PT1H").noCommittedOffset(this.consumer, noOffset(P0, P1));
		assertThat(positions()).containsExactly(12L, 30L);
		long hourAgo = NOW.minus(Duration.ofHours(1)).toEpochMilli();
		assertThat(this.searchedTimes).containsExactlyInAnyOrderEntriesOf(Map.of(P0, hourAgo, P1, hourAgo));
	}

	@Test
	void aPartitionThisProcessCommittedIsNeverStartedOverAndNothingMoves() {
		this.committed.committed(Map.of(P1, new OffsetAndMetadata(17)));
		SlotOffsetReset reset = reset("earliest");
		assertThatExceptionOfType(CommittedOffsetMissingException.class)
			.isThrownBy(() -> reset.noCommittedOffset(this.consumer, noOffset(P0, P1)))
			.withMessageStartingWith("Group 'group' reported no committed offset for [in-1], though this process "
					+ "committed {in-1=17} in it: not starting them over at auto.offset.reset");
		assertThatExceptionOfType(NoOffsetForPartitionException.class).as("no partition was sought")
			.isThrownBy(() -> this.consumer.position(P0));
	}

	@Test
	void anOffsetTheGroupGivesWhenAskedAgainIsWhereThePartitionStartsWhoeverCommittedIt() {
		this.committed.committed(Map.of(P0, new OffsetAndMetadata(9)));
		this.consumer.commitSync(Map.of(P0, new OffsetAndMetadata(11), P1, new OffsetAndMetadata(4)));
		reset("earliest").noCommittedOffset(this.consumer, noOffset(P0, P1));
		assertThat(positions()).containsExactly(11L, 4L);
	}

	@Test
	void noneLeavesThePartitionsWithoutAnOffsetAsTheConsumersFailure() {
		NoOffsetForPartitionException failure = noOffset(P0);
		assertThatExceptionOfType(NoOffsetForPartitionException.class)
			.isThrownBy(() -> reset("none").noCommittedOffset(this.consumer, failure))
			.isSameAs(failure);
		OffsetOutOfRangeException outOfRange = new OffsetOutOfRangeException("gone", Map.of(P0, 2L));
		assertThatExceptionOfType(OffsetOutOfRangeException.class)
			.isThrownBy(() -> reset("none").outOfRange(this.consumer, outOfRange))
			.isSameAs(outOfRange);
	}

	@Test
	void aPositionOutOfTheLogsRangeStartsWhereAutoOffsetResetSaysWhateverWasCommitted() {
		this.committed.committed(Map.of(P0, new OffsetAndMetadata(2)));
		reset("earliest").outOfRange(this.consumer, new OffsetOutOfRangeException("gone", Map.of(P0, 2L)));
		assertThat(this.consumer.position(P0)).isEqualTo(5L);
	}

	private SlotOffsetReset reset(String policy) {
		WorkerSettings settings = MockSlot.settings(Mode.BLOCK, new TransactionSizing(100, Duration.ofSeconds(1)),
				MockSlot.strings())
			.toBuilder()
			.consumerProperties(Map.of("auto.offset.reset", policy))
			.build();
		return new SlotOffsetReset(SlotId.of(settings, 0), settings, this.committed,
				Clock.fixed(NOW, ZoneOffset.UTC));
	}

	private static NoOffsetForPartitionException noOffset(TopicPartition... partitions) {
		return new NoOffsetForPartitionException(Set.of(partitions));
	}

	private List<Long> positions() {
		return List.of(this.consumer.position(P0), this.consumer.position(P1));
	}

}
