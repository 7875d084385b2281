package dev.lockstep.worker;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The headers a quarantined record carries beside the input record's own, each a UTF-8
 * text, and the header a redrive adds to each record it sends back.
 */
public final class QuarantineHeaders {

	/** The prefix of every header a quarantine adds. */
	public static final String PREFIX = "lockstep.error.";

	/** The topic the record was read from. */
	public static final String TOPIC = PREFIX + "topic";

	/** The partition it was read from. */
	public static final String PARTITION = PREFIX + "partition";

	/** Its offset there. */
	public static final String OFFSET = PREFIX + "offset";

	/** The class of its (last) failure. */
	public static final String EXCEPTION = PREFIX + "exception";

	/** The message of its (last) failure. */
	public static final String MESSAGE = PREFIX + "message";

	/** When it was quarantined (ISO-8601). */
	public static final String TIMESTAMP = PREFIX + "timestamp";

	/** The {@link FailureCategory} it failed with: INVALID_INPUT, or ABORTABLE for a spent retry budget. */
	public static final String CATEGORY = PREFIX + "category";

	/** How many times it was processed (1 for invalid input). */
	public static final String ATTEMPTS = PREFIX + "attempts";

	/** The class of the first failure of a spent retry budget. */
	public static final String FIRST_EXCEPTION = PREFIX + "first-exception";

	/** The message of the first failure of a spent retry budget. */
	public static final String FIRST_MESSAGE = PREFIX + "first-message";

	/** When a spent retry budget's first failure happened (ISO-8601). */
	public static final String FIRST_TIMESTAMP = PREFIX + "first-timestamp";

	/** {@code operator}: an operator skipped the record on purpose; a redrive leaves it. */
	public static final String SKIPPED = PREFIX + "skipped";

	/** How often a redrive has sent the record back from quarantine. */
	public static final String REDRIVE_COUNT = "lockstep.redrive.count";

	private QuarantineHeaders() {
	}

	/**
	 * Return the last value of a header as text.
	 * @param headers the headers
	 * @param name the header's name
	 * @return its last value, or {@code null} when it has none
	 */
	public static String text(Headers headers, String name) {
		Header last = headers.lastHeader(name);
		return (last != null && last.value() != null) ? new String(last.value(), StandardCharsets.UTF_8) : null;
	}

	/**
	 * Add a header with a text value.
	 * @param headers the headers
	 * @param name the header's name
	 * @param value its value
	 */
	public static void add(Headers headers, String name, String value) {
		headers.add(name, value.getBytes(StandardCharsets.UTF_8));
	}

}
