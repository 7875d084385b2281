package dev.lockstep.worker.slot;

import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RewindPointsTests {

	private static final TopicPartition PARTITION = new TopicPartition("in", 0);

	private final RewindPoints points = new RewindPoints();

	@Test
	void recordsReadAndNotCommittedAreCountedFromThePoint() {
		this.points.assigned(PARTITION, 10);
		this.points.polled(records(10, 20));
		assertThat(this.points.readUncommitted(PARTITION)).isEqualTo(10);
		this.points.committed(Map.of(PARTITION, new OffsetAndMetadata(15)));
		assertThat(this.points.readUncommitted(PARTITION)).isEqualTo(5);
	}

	@Test
	void aCommitOfEverythingReadLeavesNothingRead() {
		this.points.assigned(PARTITION, 0);
		this.points.polled(records(0, 10));
		this.points.committed(Map.of(PARTITION, new OffsetAndMetadata(10)));
		assertThat(this.points.readUncommitted(PARTITION)).isZero();
	}

	@Test
	void aRewindForgetsWhatWasReadUntilRecordsReturnAgain() {
		this.points.assigned(PARTITION, 0);
		this.points.polled(records(0, 10));
		MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
		consumer.assign(List.of(PARTITION));
		this.points.rewind(consumer);
		assertThat(consumer.position(PARTITION)).isZero();
		assertThat(this.points.readUncommitted(PARTITION)).isZero();
		this.points.polled(records(0, 4));
		assertThat(this.points.readUncommitted(PARTITION)).isEqualTo(4);
	}

	@Test
	void aRevokedPartitionHasNothingRead() {
		this.points.assigned(PARTITION, 0);
		this.points.polled(records(0, 10));
		this.points.revoked(List.of(PARTITION));
		assertThat(this.points.readUncommitted(PARTITION)).isZero();
		assertThat(this.points.points()).doesNotContainKey(PARTITION);
	}

	private static ConsumerRecords<byte[], byte[]> records(long from, long to) {
		List<ConsumerRecord<byte[], byte[]>> records = LongStream.range(from, to)
			.mapToObj((offset) -> new ConsumerRecord<byte[], byte[]>(PARTITION.topic(), PARTITION.partition(), offset,
					null, new byte[] { 1 }))
			.toList();
		return new ConsumerRecords<>(Map.of(PARTITION, records), Map.of());
	}

}
