package dev.lockstep.worker;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * An operator's request to send a worker's quarantined records back to the topics they
 * were read from ({@link Worker#redrive}), from where, and which of them: by the failure's
 * category, the time they were quarantined, and key. A record already redriven
 * {@code maxRedrives} times stays in quarantine (the loop guard).
 *
 * @param from read the quarantine topic from the first record quarantined at or after
 * this time, or {@code null} to go on where the worker's last redrive stopped (its first
 * record for the first redrive): so a record is sent back once, however often a redrive
 * is interrupted and asked again
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

	/** The header counting how often a record was sent back from quarantine. */
	public static final String COUNT_HEADER = "lockstep.redrive.count";

	public Redrive {
		if (maxRedrives < 1) {
			throw new IllegalArgumentException("Max redrives must be at least 1, not " + maxRedrives);
		}
		if (since != null && until != null && !since.isBefore(until)) {
			throw new IllegalArgumentException("A redrive's since (" + since + ") must be before its until (" + until + ")");
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
	 * Return whether a quarantined record is one this request selects.
	 * @param record the quarantine topic's record
	 * @return whether it matches every filter
	 */
	boolean selects(ConsumerRecord<byte[], byte[]> record) {
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
		return this.categories.isEmpty() || this.categories.contains(category(record));
	}

	/**
	 * The category a quarantined record failed with: as its header says (records
	 * quarantined before the header existed were all invalid input).
	 */
	static FailureCategory category(ConsumerRecord<byte[], byte[]> record) {
		Header header = record.headers().lastHeader(InvalidInputHandler.ERROR_HEADER_PREFIX + "category");
		return (header != null) ? FailureCategory.valueOf(new String(header.value(), StandardCharsets.UTF_8))
				: FailureCategory.INVALID_INPUT;
	}

}
