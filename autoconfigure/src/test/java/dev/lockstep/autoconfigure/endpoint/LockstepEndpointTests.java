package dev.lockstep.autoconfigure.endpoint;

import java.time.Instant;
import java.util.Set;

import dev.lockstep.worker.FailureCategory;
import dev.lockstep.worker.OffsetReset;
import dev.lockstep.worker.Redrive;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * How the {@code lockstep} endpoint reads an offset reset and a redrive (both run against
 * a real broker in the worker's {@code WorkerTests} and {@code WorkerRedriveTests}).
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
	void readsARedrivesPositionFiltersAndLoopGuard() {
		assertThat(LockstepEndpoint.redrive(null, null, null, null, null, null, "ops"))
			.isEqualTo(new Redrive(null, Set.of(), null, null, null, 3, "ops"));
		assertThat(LockstepEndpoint.redrive("2026-12-06T09:00:00Z", "abortable, INVALID_INPUT", "2026-12-06T09:30:00Z",
				"2026-12-06T10:00:00Z", "order-7", 1, "ops"))
			.isEqualTo(new Redrive(Instant.parse("2026-12-06T09:00:00Z"),
					Set.of(FailureCategory.ABORTABLE, FailureCategory.INVALID_INPUT),
					Instant.parse("2026-12-06T09:30:00Z"), Instant.parse("2026-12-06T10:00:00Z"), "order-7", 1, "ops"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockstepEndpoint.redrive(null, "fenced-ish", null, null, null, null, "ops"))
			.withMessageContaining("Category 'fenced-ish'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockstepEndpoint.redrive("09:00", null, null, null, null, null, "ops"))
			.withMessageContaining("'from' is 09:00");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LockstepEndpoint.redrive(null, null, null, null, null, 0, "ops"))
			.withMessageContaining("at least 1");
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
