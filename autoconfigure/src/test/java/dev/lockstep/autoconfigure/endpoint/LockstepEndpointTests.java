package dev.lockstep.autoconfigure.endpoint;

import java.time.Instant;
import java.util.Set;

import dev.lockstep.worker.OffsetReset;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * How the {@code lockstep} endpoint reads an offset reset (the reset itself runs against a
 * real broker in the worker's {@code WorkerTests}).
 */
class LockstepEndpointTests {

	@Test
	void readsTheEndATimeOrAnOffsetAndThePartitions() {
		assertThat(LockstepEndpoint.offsetReset("end", null)).isEqualTo(OffsetReset.toEnd());
		assertThat(LockstepEndpoint.offsetReset("2026-12-06T09:00:00Z", ""))
			.isEqualTo(OffsetReset.toTimestamp(Instant.parse("2026-12-06T09:00:00Z")));
		assertThat(LockstepEndpoint.offsetReset("42", "orders:0, orders.v2:11").partitions())
			.isEqualTo(Set.of(new TopicPartition("orders", 0), new TopicPartition("orders.v2", 11)));
		assertThat(LockstepEndpoint.offsetReset("42", null).offset()).isEqualTo(42);
	}

	@Test
	void refusesWhatItCannotRead() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockstepEndpoint.offsetReset(null, null))
			.withMessageContaining("reset needs 'to'");
		assertThatIllegalArgumentException().isThrownBy(() -> LockstepEndpoint.offsetReset("yesterday", null))
			.withMessageContaining("'to' is yesterday");
		assertThatIllegalArgumentException().isThrownBy(() -> LockstepEndpoint.offsetReset("end", "orders"))
			.withMessageContaining("Partition 'orders': use topic:partition");
	}

}
