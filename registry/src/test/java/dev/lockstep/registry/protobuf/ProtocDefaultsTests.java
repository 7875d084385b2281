package dev.lockstep.registry.protobuf;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Default values spelled as protoc spells them in a descriptor (C's {@code %g}, shortest
 * that reads back; integers in decimal).
 */
class ProtocDefaultsTests {

	@Test
	void doublesAsCsPercentGWithTheFewestDigitsThatReadBack() {
		assertThat(ProtocDefaults.doubleText(1.5e3)).isEqualTo("1500");
		assertThat(ProtocDefaults.doubleText(0.1)).isEqualTo("0.1");
		assertThat(ProtocDefaults.doubleText(0.0001)).isEqualTo("0.0001");
		assertThat(ProtocDefaults.doubleText(1e-5)).isEqualTo("1e-05");
		assertThat(ProtocDefaults.doubleText(1e20)).isEqualTo("1e+20");
		assertThat(ProtocDefaults.doubleText(123456789012345678.0)).isEqualTo("1.2345678901234568e+17");
		assertThat(ProtocDefaults.doubleText(-2.5)).isEqualTo("-2.5");
		assertThat(ProtocDefaults.doubleText(Double.NaN)).isEqualTo("nan");
		assertThat(ProtocDefaults.doubleText(Double.NEGATIVE_INFINITY)).isEqualTo("-inf");
		assertThat(ProtocDefaults.doubleText(-0.0)).isEqualTo("-0");
	}

	@Test
	void floatsWithSixDigitsOrNine() {
		assertThat(ProtocDefaults.floatText(0.1f)).isEqualTo("0.1");
		assertThat(ProtocDefaults.floatText(Float.MAX_VALUE)).isEqualTo("3.40282347e+38");
		assertThat(ProtocDefaults.floatText(Float.POSITIVE_INFINITY)).isEqualTo("inf");
	}

	@Test
	void integersInDecimal() {
		assertThat(ProtocDefaults.integerText("", "0x10")).isEqualTo("16");
		assertThat(ProtocDefaults.integerText("-", "010")).isEqualTo("-8");
		assertThat(ProtocDefaults.integerText("", "18446744073709551615")).isEqualTo("18446744073709551615");
		assertThat(ProtocDefaults.integerText("-", "0")).isEqualTo("0");
	}

}
