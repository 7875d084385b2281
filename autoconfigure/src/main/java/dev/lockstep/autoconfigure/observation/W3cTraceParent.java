package dev.lockstep.autoconfigure.observation;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Reads a W3C {@code traceparent} header's sampled flag from its bytes without decoding
 * them, and the ids of a valid one: {@code 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>}, 55
 * characters, sampled when the low bit of the flags is set.
 */
final class W3cTraceParent {

	/** The header's name. */
	static final String HEADER = "traceparent";

	/** The value is not a valid version 00 traceparent: let the propagator read it. */
	static final int INVALID = -1;

	static final int NOT_SAMPLED = 0;

	static final int SAMPLED = 1;

	private static final int LENGTH = 55;

	private static final int TRACE_ID = 3;

	private static final int PARENT_ID = 36;

	private static final int FLAGS = 53;

	private W3cTraceParent() {
	}

	/**
	 * Read the sampled flag of a traceparent header's value.
	 * @param value the header's value
	 * @return {@link #SAMPLED}, {@link #NOT_SAMPLED}, or {@link #INVALID} for a value that
	 * is not a valid version 00 traceparent (other versions included)
	 */
	static int sampled(byte[] value) {
		if (value == null || value.length != LENGTH || value[0] != '0' || value[1] != '0' || value[2] != '-'
				|| value[PARENT_ID - 1] != '-' || value[FLAGS - 1] != '-' || !isId(value, TRACE_ID, 32)
				|| !isId(value, PARENT_ID, 16)) {
			return INVALID;
		}
		int high = hex(value[FLAGS]);
		int low = hex(value[FLAGS + 1]);
		if (high < 0 || low < 0) {
			return INVALID;
		}
		return ((low & 1) != 0) ? SAMPLED : NOT_SAMPLED;
	}

	/**
	 * Return the value of a record's last {@code traceparent} header.
	 * @param headers the record's headers
	 * @return the value, or {@code null} when there is none
	 */
	static byte[] value(Headers headers) {
		Header header = headers.lastHeader(HEADER);
		return (header != null) ? header.value() : null;
	}

	/**
	 * Return the trace id of a valid version 00 traceparent.
	 * @param value the header's value, {@link #sampled} not {@link #INVALID}
	 * @return the 32 hex digits
	 */
	static String traceId(byte[] value) {
		return new String(value, TRACE_ID, 32, StandardCharsets.US_ASCII);
	}

	/**
	 * Return the parent (span) id of a valid version 00 traceparent.
	 * @param value the header's value, {@link #sampled} not {@link #INVALID}
	 * @return the 16 hex digits
	 */
	static String parentId(byte[] value) {
		return new String(value, PARENT_ID, 16, StandardCharsets.US_ASCII);
	}

	// Lower-case hex, not all zeros (an all-zero id is invalid).
	private static boolean isId(byte[] value, int from, int length) {
		boolean nonZero = false;
		for (int i = from; i < from + length; i++) {
			int digit = hex(value[i]);
			if (digit < 0) {
				return false;
			}
			nonZero |= digit != 0;
		}
		return nonZero;
	}

	private static int hex(byte character) {
		if (character >= '0' && character <= '9') {
			return character - '0';
		}
		if (character >= 'a' && character <= 'f') {
			return character - 'a' + 10;
		}
		return -1;
	}

}
