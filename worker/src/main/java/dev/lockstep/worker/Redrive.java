package dev.lockstep.worker;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * An operator's request to send a worker's quarantined records back to the topics they
 * were read from ({@link Worker#redrive}), from where, and which of them: by the failure's
 * category, the time they were quarantined, and key. A record already redriven
 * {@code maxRedrives} times stays in quarantine (the loop guard).
 *
 * @param from read the quarantine topic again from the first record quarantined at or
 * after this time, or {@code null} to go on where the worker's last redrive stopped (its
 * first record for the first redrive). Either way a redrive interrupted and asked again
 * goes on where it stopped, so each record is sent back once per position: the worker's
 * redrives share one, and the redrives from a given time another
 * @param categories the categories sent back ({@link FailureCategory#INVALID_INPUT},
 * {@link FailureCategory#ABORTABLE} for a spent retry budget); empty: every one
 * @param since quarantined at or after this time, or {@code null}
 * @param until quarantined before this time, or {@code null}
 * @param key only records with this key (as UTF-8 text), or {@code null}
 * @param maxRedrives how often a record may be sent back before it stays in quarantine
 * @param requestedBy who asked, for the log
 */
public record Redrive(Instant from, Set<FailureCategory> categories, Instant since, Instant until, String key,
		int maxRedrives, String requestedBy) {

	/** How often a record may be sent back unless set. */
	public static final int DEFAULT_MAX_REDRIVES = 3;

	public Redrive {
		Objects.requireNonNull(categories, "categories (empty for every one)");
		if (maxRedrives < 1) {
			throw new IllegalArgumentException("Max redrives must be at least 1, not " + maxRedrives);
		}
		if (since != null && until != null && !since.isBefore(until)) {
			throw new IllegalArgumentException(
					"A redrive's since (" + since + ") must be before its until (" + until + ")");
		}
		categories = Set.copyOf(categories);
	}

	/**
	 * Every record quarantined since the last redrive, sent back at most
	 * {@value #DEFAULT_MAX_REDRIVES} times.
	 * @return the request
	 */
	public static Redrive sinceTheLast() {
		return new Redrive(null, Set.of(), null, null, null, DEFAULT_MAX_REDRIVES, "the application");
	}

	/**
	 * Return whether a quarantined record is one this request selects. A record an
	 * operator skipped on purpose never is.
	 * @param record the quarantine topic's record
	 * @return whether it matches every filter
	 */
	public boolean selects(ConsumerRecord<byte[], byte[]> record) {
		if (this.since != null && record.timestamp() < this.since.toEpochMilli()) {
			return false;
		}
		if (this.until != null && record.timestamp() >= this.until.toEpochMilli()) {
			return false;
		}
		if (this.key != null
				&& (record.key() == null || !this.key.equals(new String(record.key(), StandardCharsets.UTF_8)))) {
			return false;
		}
		if (record.headers().lastHeader(QuarantineHeaders.SKIPPED) != null) {
			return false;
		}
		return this.categories.isEmpty() || this.categories.contains(category(record));
	}

	/**
	 * The category a quarantined record failed with, as its header says: records
	 * quarantined before the header existed were all invalid input; one the header names
	 * otherwise is of no category.
	 */
	private static FailureCategory category(ConsumerRecord<byte[], byte[]> record) {
		String category = QuarantineHeaders.text(record.headers(), QuarantineHeaders.CATEGORY);
		if (category == null) {
			return FailureCategory.INVALID_INPUT;
		}
		for (FailureCategory known : FailureCategory.values()) {
			if (known.name().equals(category)) {
				return known;
			}
		}
		return null;
	}

}
