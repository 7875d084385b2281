package dev.lockstep.registry.protobuf;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Default values as protoc writes them into a descriptor: integers in decimal, floats and
 * doubles as C's {@code %g} with the fewest digits that read back the same (6 or 9 for a
 * float, 15 or 17 for a double), {@code inf}, {@code -inf} and {@code nan}. A file read
 * here then prints as the same schema protoc's descriptor of it prints.
 */
final class ProtocDefaults {

	private ProtocDefaults() {
	}

	static String doubleText(double value) {
		String special = special(value);
		if (special != null) {
			return special;
		}
		String text = formatG(value, 15);
		return (Double.parseDouble(text) == value) ? text : formatG(value, 17);
	}

	static String floatText(float value) {
		String special = special(value);
		if (special != null) {
			return special;
		}
		String text = formatG(value, 6);
		return (Float.parseFloat(text) == value) ? text : formatG(value, 9);
	}

	static String integerText(String sign, String text) {
		String digits = text.toLowerCase(Locale.ROOT);
		BigInteger value = digits.startsWith("0x") ? new BigInteger(digits.substring(2), 16)
				: (digits.length() > 1 && digits.startsWith("0")) ? new BigInteger(digits.substring(1), 8)
						: new BigInteger(digits);
		return (sign.isEmpty() ? value : value.negate()).toString();
	}

	private static String special(double value) {
		if (Double.isNaN(value)) {
			return "nan";
		}
		if (Double.isInfinite(value)) {
			return (value > 0) ? "inf" : "-inf";
		}
		if (value == 0) {
			return (1 / value < 0) ? "-0" : "0";
		}
		return null;
	}

	// C's %.{precision}g: fixed notation for exponents from -4 to precision - 1, else
	// scientific with a sign and at least two exponent digits; trailing zeros dropped.
	private static String formatG(double value, int precision) {
		BigDecimal rounded = new BigDecimal(value).round(new MathContext(precision, RoundingMode.HALF_EVEN));
		int exponent = rounded.precision() - rounded.scale() - 1;
		if (exponent < -4 || exponent >= precision) {
			String mantissa = rounded.movePointLeft(exponent).stripTrailingZeros().toPlainString();
			int magnitude = Math.abs(exponent);
			return mantissa + "e" + ((exponent < 0) ? "-" : "+") + ((magnitude < 10) ? "0" : "") + magnitude;
		}
		return rounded.stripTrailingZeros().toPlainString();
	}

}
