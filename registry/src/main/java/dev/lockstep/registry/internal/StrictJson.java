package dev.lockstep.registry.internal;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.lockstep.registry.InvalidDataException;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Strict reading of JSON, as every JSON codec reads payloads and schema texts: one value,
 * nothing after it, no duplicate keys, numbers exactly as written ({@code 0.10} stays
 * {@code 0.10}), no number with an exponent beyond 10,000, and, read from bytes, UTF-8
 * throughout. Internal: not API.
 */
public final class StrictJson {

	// 1e999999999 is 11 bytes, and a multipleOf check (or a reader's BigDecimal
	// arithmetic) on it would build a number of 10^9 digits.
	private static final int MAX_NUMBER_SCALE = 10_000;

	private static final ObjectMapper STRICT = JsonMapper.builder()
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
		.nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
		.build();

	private StrictJson() {
	}

	/**
	 * Read one JSON value.
	 * @param json the UTF-8 JSON
	 * @param offset where it starts
	 * @param length its length
	 * @return the tree; a {@code MissingNode} when there is no value
	 * @throws IOException when it is not one acceptable JSON value
	 */
	public static JsonNode read(byte[] json, int offset, int length) throws IOException {
		// Jackson checks little more than continuation bits (overlong forms, surrogates and
		// code points past U+10FFFF pass), keeps the field names it has decoded (a bad name
		// could pass, or not, by what was read before), and reads text with NUL bytes as
		// UTF-16 or UTF-32.
		checkUtf8(json, offset, length);
		try {
			return checkNumbers(STRICT.readTree(json, offset, length));
		}
		catch (NumberFormatException ex) {
			// Jackson's report of a number BigDecimal cannot hold (an exponent past 2^31).
			throw new IOException(ex.getMessage(), ex);
		}
	}

	/**
	 * Read one JSON value from text.
	 * @param text the JSON
	 * @return the tree; a {@code MissingNode} when there is no value
	 * @throws IOException when it is not one acceptable JSON value
	 */
	public static JsonNode read(String text) throws IOException {
		try {
			return checkNumbers(STRICT.readTree(text));
		}
		catch (NumberFormatException ex) {
			throw new IOException(ex.getMessage(), ex);
		}
	}

	/**
	 * Map a tree to a value of a class, telling the application's fault from the data's.
	 * @param <T> the value type
	 * @param mapper the mapper
	 * @param tree the tree, read strictly
	 * @param type the class ({@link JsonNode} for the tree itself)
	 * @param what what the tree is, for messages, such as {@code JSON of schema id 3}
	 * @return the value
	 * @throws SerializationException when the class cannot be read into at all (no
	 * creator, a type without its module): retried, never quarantined
	 * @throws InvalidDataException when this tree cannot be read as the class
	 */
	public static <T> T toValue(ObjectMapper mapper, JsonNode tree, Class<T> type, String what) {
		if (type == JsonNode.class) {
			return type.cast(tree);
		}
		try {
			return mapper.treeToValue(tree, type);
		}
		catch (InvalidDefinitionException ex) {
			throw new SerializationException(type.getName() + " cannot be read from JSON: " + ex.getMessage(), ex);
		}
		catch (IOException | RuntimeException | StackOverflowError ex) {
			throw new InvalidDataException(what + " cannot be read as a " + type.getName() + ": " + ex.getMessage(), ex);
		}
	}

	private static void checkUtf8(byte[] bytes, int offset, int length) throws IOException {
		int end = offset + length;
		int at = offset;
		while (at < end) {
			int lead = bytes[at];
			if (lead > 0) {
				at++;
				continue;
			}
			int following = ((lead & 0xE0) == 0xC0) ? 1 : ((lead & 0xF0) == 0xE0) ? 2 : ((lead & 0xF8) == 0xF0) ? 3 : -1;
			// A NUL (never in JSON text) falls here too.
			if (following < 0 || at + following >= end) {
				throw notUtf8(bytes, at, offset);
			}
			int codePoint = lead & (0x3F >> following);
			for (int next = at + 1; next <= at + following; next++) {
				if ((bytes[next] & 0xC0) != 0x80) {
					throw notUtf8(bytes, at, offset);
				}
				codePoint = (codePoint << 6) | (bytes[next] & 0x3F);
			}
			int least = (following == 1) ? 0x80 : (following == 2) ? 0x800 : 0x10000;
			if (codePoint < least || codePoint > Character.MAX_CODE_POINT
					|| (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE)) {
				throw notUtf8(bytes, at, offset);
			}
			at += following + 1;
		}
	}

	private static IOException notUtf8(byte[] bytes, int at, int offset) {
		return new IOException("Not UTF-8 JSON: byte 0x%02X at offset %d".formatted(bytes[at] & 0xFF, at - offset));
	}

	private static JsonNode checkNumbers(JsonNode tree) throws IOException {
		// Iterative: a value may nest as deep as Jackson allows (1,000), whatever the stack.
		Deque<JsonNode> pending = new ArrayDeque<>();
		pending.push(tree);
		while (!pending.isEmpty()) {
			JsonNode node = pending.pop();
			if (node.isBigDecimal() && Math.abs((long) node.decimalValue().scale()) > MAX_NUMBER_SCALE) {
				String number = node.decimalValue().toString();
				throw new IOException("Number " + ((number.length() > 40) ? number.substring(0, 40) + "..." : number)
						+ " has an exponent beyond " + MAX_NUMBER_SCALE);
			}
			node.forEach(pending::push);
		}
		return tree;
	}

}
