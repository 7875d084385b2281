package dev.lockstep.registry.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * Strict reading of JSON bytes: text that is not UTF-8 is refused wherever it stands, the
 * same whatever the JVM read before.
 */
class StrictJsonTests {

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "80", // a continuation byte with nothing before it
			"c328", // a lead byte followed by ASCII
			"c0af", // an overlong '/'
			"e08080", // an overlong NUL in three bytes
			"eda080", // a UTF-16 surrogate
			"f4908080", // past U+10FFFF
			"f8888080", // a five-byte lead
			"ff", "e282" // a three-byte sequence cut short
	})
	void invalidUtf8InAFieldNameIsRefusedEvenAfterTheSameBytesWereSeenAsAName(String hex) throws IOException {
		byte[] json = json("{\"a", hex, "\":1}");
		assertThatIOException().isThrownBy(() -> StrictJson.read(json, 0, json.length))
			.withMessageContaining("UTF-8");
		// Jackson keeps the names it has decoded; a second reading must not find one there.
		assertThatIOException().isThrownBy(() -> StrictJson.read(json, 0, json.length))
			.withMessageContaining("UTF-8");
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "80", "c328", "c0af", "eda080", "f4908080", "e282" })
	void invalidUtf8InAStringValueIsRefused(String hex) {
		byte[] json = json("{\"a\":\"x", hex, "\"}");
		assertThatIOException().isThrownBy(() -> StrictJson.read(json, 0, json.length))
			.withMessageContaining("UTF-8");
	}

	@Test
	void textOfEveryUtf8LengthIsRead() throws IOException {
		String text = "{\"é€😀\":\"aé€😀\"}";
		byte[] json = text.getBytes(StandardCharsets.UTF_8);
		assertThat(StrictJson.read(json, 0, json.length).get("é€😀").asText()).isEqualTo("aé€😀");
	}

	@Test
	void onlyTheBytesBetweenOffsetAndLengthAreChecked() throws IOException {
		byte[] framed = HexFormat.of().parseHex("ff7b7dff");
		assertThat(StrictJson.read(framed, 1, 2).isEmpty()).isTrue();
	}

	@Test
	void theMessageSaysWhereTheFirstBadByteIs() {
		byte[] json = json("{\"ab", "ff", "\":1}");
		assertThatIOException().isThrownBy(() -> StrictJson.read(json, 0, json.length))
			.withMessage("Not UTF-8: byte 0xFF at offset 4");
	}

	private static byte[] json(String before, String hex, String after) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		bytes.writeBytes(before.getBytes(StandardCharsets.UTF_8));
		bytes.writeBytes(HexFormat.of().parseHex(hex));
		bytes.writeBytes(after.getBytes(StandardCharsets.UTF_8));
		return bytes.toByteArray();
	}

}
