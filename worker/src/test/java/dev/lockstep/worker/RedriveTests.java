package dev.lockstep.worker;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Which quarantined records a {@link Redrive} selects.
 */
class RedriveTests {

	private static final Instant NINE = Instant.parse("2026-12-06T09:00:00Z");

	@Test
	void selectsByCategoryTimeAndKeyAndReadsARecordWithoutCategoryAsInvalidInput() {
		ConsumerRecord<byte[], byte[]> spent = quarantined("order-1", NINE, "ABORTABLE");
		ConsumerRecord<byte[], byte[]> invalid = quarantined("order-2", NINE.plusSeconds(60), "INVALID_INPUT");
		ConsumerRecord<byte[], byte[]> older = quarantined("order-3", NINE.minusSeconds(60), null);

		assertThat(Redrive.sinceTheLast().selects(spent)).isTrue();
		Redrive spentOnly = new Redrive(null, Set.of(FailureCategory.ABORTABLE), null, null, null, 3, "test");
		assertThat(spentOnly.selects(spent)).isTrue();
		assertThat(spentOnly.selects(invalid)).isFalse();
		assertThat(spentOnly.selects(older)).isFalse();
		Redrive invalidOnly = new Redrive(null, Set.of(FailureCategory.INVALID_INPUT), null, null, null, 3, "test");
		assertThat(invalidOnly.selects(older)).isTrue();
		Redrive nineToTen = new Redrive(null, Set.of(), NINE, NINE.plusSeconds(60), null, 3, "test");
		assertThat(nineToTen.selects(spent)).as("at since").isTrue();
		assertThat(nineToTen.selects(invalid)).as("at until").isFalse();
		assertThat(nineToTen.selects(older)).isFalse();
		Redrive oneKey = new Redrive(null, Set.of(), null, null, "order-2", 3, "test");
		assertThat(oneKey.selects(invalid)).isTrue();
		assertThat(oneKey.selects(spent)).isFalse();
	}

	@Test
	void aRequestOutOfRangeIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new Redrive(null, Set.of(), null, null, null, 0, "test"))
			.withMessageContaining("at least 1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Redrive(null, Set.of(), NINE, NINE, null, 3, "test"))
			.withMessageContaining("must be before");
	}

	private static ConsumerRecord<byte[], byte[]> quarantined(String key, Instant at, String category) {
		RecordHeaders headers = new RecordHeaders();
		headers.add("lockstep.error.topic", "orders".getBytes(StandardCharsets.UTF_8));
		if (category != null) {
			headers.add("lockstep.error.category", category.getBytes(StandardCharsets.UTF_8));
		}
		return new ConsumerRecord<>("orders-quarantine", 0, 0, at.toEpochMilli(), TimestampType.CREATE_TIME, -1, -1,
				key.getBytes(StandardCharsets.UTF_8), new byte[0], headers, Optional.empty());
	}

}
