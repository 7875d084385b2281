package dev.lockstep.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

/**
 * A worker's {@code auto.offset.reset}, read as Kafka's consumer reads it ({@code earliest},
 * {@code latest}, {@code none}, {@code by_duration:<ISO-8601 duration>}) and applied by the
 * slot, not the consumer: the slot's consumer runs with {@code none}, so that a partition
 * starts over only once {@link SlotOffsetReset} has found nothing that contradicts the
 * group's answer.
 */
final class AutoOffsetReset {

	private static final String BY_DURATION = "by_duration:";

	private final String value;

	private final Duration duration;

	private AutoOffsetReset(String value, Duration duration) {
		this.value = value;
		this.duration = duration;
	}

	/**
	 * Read a configured value.
	 * @param value the value of {@code auto.offset.reset}
	 * @return the policy
	 * @throws IllegalArgumentException when Kafka's consumer would refuse the value
	 */
	static AutoOffsetReset parse(Object value) {
		String text = String.valueOf(value);
		if (text.equals("earliest") || text.equals("latest") || text.equals("none")) {
			return new AutoOffsetReset(text, null);
		}
		if (text.startsWith(BY_DURATION)) {
			try {
				Duration duration = Duration.parse(text.substring(BY_DURATION.length()));
				if (!duration.isNegative()) {
					return new AutoOffsetReset(text, duration);
				}
			}
			catch (DateTimeParseException ex) {
				// Refused below, with the accepted forms.
			}
		}
		throw new IllegalArgumentException("auto.offset.reset is '" + text
				+ "': expected earliest, latest, none or by_duration:<a non-negative ISO-8601 duration, PT1H>");
	}

	/**
	 * Return whether a partition without a committed offset is an error, not a start.
	 * @return whether the policy is {@code none}
	 */
	boolean isNone() {
		return this.value.equals("none");
	}

	/**
	 * Seek partitions to where the policy starts them: the first record, the end, or the
	 * first record of the last {@code duration} (the end when there is none, as Kafka's
	 * consumer does).
	 * @param consumer the consumer the partitions are assigned to
	 * @param partitions the partitions
	 * @param clock the clock {@code by_duration} counts back from
	 */
	void apply(Consumer<?, ?> consumer, Collection<TopicPartition> partitions, Clock clock) {
		if (this.value.equals("earliest")) {
			consumer.seekToBeginning(partitions);
		}
		else if (this.value.equals("latest")) {
			consumer.seekToEnd(partitions);
		}
		else if (this.duration != null) {
			long since = clock.instant().minus(this.duration).toEpochMilli();
			Map<TopicPartition, Long> times = new HashMap<>();
			partitions.forEach((partition) -> times.put(partition, since));
			consumer.offsetsForTimes(times).forEach((partition, found) -> seek(consumer, partition, found));
		}
		else {
			throw new IllegalStateException("auto.offset.reset is none: no partition starts without an offset");
		}
	}

	private static void seek(Consumer<?, ?> consumer, TopicPartition partition, OffsetAndTimestamp found) {
		if (found != null) {
			consumer.seek(partition, found.offset());
		}
		else {
			consumer.seekToEnd(List.of(partition));
		}
	}

	@Override
	public String toString() {
		return this.value;
	}

}
