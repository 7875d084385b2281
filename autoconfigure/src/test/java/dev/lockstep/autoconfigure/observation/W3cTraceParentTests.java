package dev.lockstep.autoconfigure.observation;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class W3cTraceParentTests {

	@ParameterizedTest
	@CsvSource({ "01, 1", "00, 0", "03, 1", "02, 0", "ff, 1", "fe, 0" })
	void theSampledFlagIsTheLowBitOfTheFlags(String flags, int sampled) {
		assertThat(W3cTraceParent.sampled(bytes("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-" + flags)))
			.isEqualTo(sampled);
	}

	@ParameterizedTest
	@ValueSource(strings = { "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
			"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-",
			"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b-01",
			"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
			"00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "" })
	void anythingButAValidVersion00TraceparentIsLeftToThePropagator(String value) {
		assertThat(W3cTraceParent.sampled(bytes(value))).isEqualTo(W3cTraceParent.INVALID);
	}

	private static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.US_ASCII);
	}

}
