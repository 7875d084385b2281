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
			"c0af", "c1bf", // overlong forms of '/' and of U+007F
			"e08080", "f08fbfbf", // overlong forms in three and four bytes
			"eda080", "edbfbf", // UTF-16 surrogates
			"f4908080", "f5808080", // past U+10FFFF
			"f8888080", // a five-byte lead
			"ff", // a byte never in UTF-8
			"e282", // a three-byte sequence cut short
			"00" // a NUL: never in JSON text, and Jackson would read the text as UTF-16
	})
	void invalidUtf8InAFieldNameIsRefusedOnEveryReading(String hex) {
		byte[] json = json("{\"a", hex, "\":1}");
		assertThatIOException().isThrownBy(() -> StrictJson.read(json, 0, json.length))
			.withMessageContaining("Not UTF-8 JSON");
		// Jackson keeps the names it has decoded: a second reading is refused the same way.
		assertThatIOException().isThrownBy(() -> StrictJson.read(json, 0, json.length))
			.withMessageContaining("Not UTF-8 JSON");
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "80", "c328", "c0af", "eda080", "f4908080", "e282" })
	void invalidUtf8InAStringValueIsRefused(String hex) {
		byte[] json = json("{\"a\":\"x", hex, "\"}");
		assertThatIOException().isThrownBy(() -> StrictJson.read(json, 0, json.length))
			.withMessageContaining("Not UTF-8 JSON");
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "c280", "dfbf", "e0a080", "ed9fbf", "ee8080", "efbfbf", "f0908080", "f48fbfbf" })
	void everyUtf8LengthIsReadUpToItsBounds(String hex) throws IOException {
		String text = new String(HexFormat.of().parseHex(hex), StandardCharsets.UTF_8);
		byte[] json = ("{\"a" + text + "\":\"b" + text + "\"}").getBytes(StandardCharsets.UTF_8);
		assertThat(StrictJson.read(json, 0, json.length).get("a" + text).asText()).isEqualTo("b" + text);
	}

	@Test
	void onlyTheBytesBetweenOffsetAndLengthAreChecked() throws IOException {
		byte[] framed = HexFormat.of().parseHex("ff7b7dff");
		assertThat(StrictJson.read(framed, 1, 2).isEmpty()).isTrue();
	}

	@Test
	void aSequenceCutShortByTheLengthIsRefusedThoughItsBytesFollow() {
		byte[] framed = HexFormat.of().parseHex("7b7de282ac");
		assertThatIOException().isThrownBy(() -> StrictJson.read(framed, 0, 4))
			.withMessage("Not UTF-8 JSON: byte 0xE2 at offset 2");
	}

	@Test
	void theMessageSaysWhereTheFirstBadByteIs() {
		byte[] json = json("{\"ab", "ff", "\":1}");
		assertThatIOException().isThrownBy(() -> StrictJson.read(json, 0, json.length))
			.withMessage("Not UTF-8 JSON: byte 0xFF at offset 4");
	}

	private static byte[] json(String before, String hex, String after) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		bytes.writeBytes(before.getBytes(StandardCharsets.UTF_8));
		bytes.writeBytes(HexFormat.of().parseHex(hex));
		bytes.writeBytes(after.getBytes(StandardCharsets.UTF_8));
		return bytes.toByteArray();
	}

}
