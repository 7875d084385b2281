package dev.lockstep.registry.protobuf;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits {@code .proto} text into the tokens {@link ProtoParser} reads: words (dotted names
 * included), numbers, string literals (escapes decoded to bytes) and single-character
 * symbols, each with its line; comments and white space dropped.
 */
final class ProtoTokenizer {

	private ProtoTokenizer() {
	}

	/** What a token is. */
	enum Kind {

		WORD, NUMBER, STRING, SYMBOL

	}

	/** A token: its kind, its text as written, a string's decoded bytes, its line. */
	record Token(Kind kind, String text, byte[] bytes, int line) {

	}

	/**
	 * Split a text.
	 * @param text the {@code .proto} text
	 * @return its tokens
	 * @throws IllegalArgumentException for an unterminated comment or string, or a bad escape
	 */
	static List<Token> tokenize(String text) {
		List<Token> tokens = new ArrayList<>();
		int line = 1;
		int i = 0;
		int length = text.length();
		while (i < length) {
			char c = text.charAt(i);
			if (c == '\n') {
				line++;
				i++;
			}
			else if (Character.isWhitespace(c)) {
				i++;
			}
			else if (c == '/' && i + 1 < length && text.charAt(i + 1) == '/') {
				while (i < length && text.charAt(i) != '\n') {
					i++;
				}
			}
			else if (c == '/' && i + 1 < length && text.charAt(i + 1) == '*') {
				int end = text.indexOf("*/", i + 2);
				if (end < 0) {
					throw new IllegalArgumentException("Unterminated comment (line " + line + ")");
				}
				line += (int) text.substring(i, end).chars().filter((ch) -> ch == '\n').count();
				i = end + 2;
			}
			else if (isWordStart(c) || (c == '.' && i + 1 < length && isWordStart(text.charAt(i + 1)))) {
				int start = i++;
				while (i < length && (isWordPart(text.charAt(i)) || text.charAt(i) == '.')) {
					i++;
				}
				tokens.add(new Token(Kind.WORD, text.substring(start, i), null, line));
			}
			else if (Character.isDigit(c) || (c == '.' && i + 1 < length && Character.isDigit(text.charAt(i + 1)))) {
				int start = i++;
				boolean hex = c == '0' && i < length && (text.charAt(i) == 'x' || text.charAt(i) == 'X');
				while (i < length && (isWordPart(text.charAt(i)) || text.charAt(i) == '.'
						|| (!hex && (text.charAt(i) == '+' || text.charAt(i) == '-')
								&& (text.charAt(i - 1) == 'e' || text.charAt(i - 1) == 'E')))) {
					i++;
				}
				tokens.add(new Token(Kind.NUMBER, text.substring(start, i), null, line));
			}
			else if (c == '"' || c == '\'') {
				ByteArrayOutputStream bytes = new ByteArrayOutputStream();
				int start = i++;
				while (true) {
					if (i >= length || text.charAt(i) == '\n') {
						throw new IllegalArgumentException("Unterminated string (line " + line + ")");
					}
					int s = text.codePointAt(i);
					i += Character.charCount(s);
					if (s == c) {
						break;
					}
					if (s != '\\') {
						bytes.writeBytes(Character.toString(s).getBytes(StandardCharsets.UTF_8));
						continue;
					}
					if (i >= length) {
						throw new IllegalArgumentException("Unterminated string (line " + line + ")");
					}
					char e = text.charAt(i++);
					switch (e) {
						case 'n' -> bytes.write('\n');
						case 't' -> bytes.write('\t');
						case 'r' -> bytes.write('\r');
						case 'a' -> bytes.write(7);
						case 'b' -> bytes.write('\b');
						case 'f' -> bytes.write('\f');
						case 'v' -> bytes.write(11);
						case 'u', 'U' -> {
							int digits = (e == 'u') ? 4 : 8;
							if (i + digits > length) {
								throw new IllegalArgumentException("Bad \\" + e + " escape (line " + line + ")");
							}
							int codePoint;
							try {
								codePoint = Integer.parseInt(text.substring(i, i + digits), 16);
							}
							catch (NumberFormatException ex) {
								throw new IllegalArgumentException("Bad \\" + e + " escape (line " + line + ")");
							}
							if (!Character.isValidCodePoint(codePoint)) {
								throw new IllegalArgumentException("Bad \\" + e + " escape (line " + line + ")");
							}
							i += digits;
							bytes.writeBytes(Character.toString(codePoint).getBytes(StandardCharsets.UTF_8));
						}
						case 'x', 'X' -> {
							int value = 0;
							int digits = 0;
							while (digits < 2 && i < length && Character.digit(text.charAt(i), 16) >= 0) {
								value = value * 16 + Character.digit(text.charAt(i++), 16);
								digits++;
							}
							if (digits == 0) {
								throw new IllegalArgumentException("Bad \\x escape (line " + line + ")");
							}
							bytes.write(value);
						}
						default -> {
							if (e >= '0' && e <= '7') {
								int value = e - '0';
								for (int digits = 1; digits < 3 && i < length && text.charAt(i) >= '0'
										&& text.charAt(i) <= '7'; digits++) {
									value = value * 8 + (text.charAt(i++) - '0');
								}
								bytes.write(value & 0xFF);
							}
							else {
								bytes.writeBytes(String.valueOf(e).getBytes(StandardCharsets.UTF_8));
							}
						}
					}
				}
				tokens.add(new Token(Kind.STRING, text.substring(start, i), bytes.toByteArray(), line));
			}
			else {
				tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), null, line));
				i++;
			}
		}
		return tokens;
	}

	private static boolean isWordStart(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
	}

	private static boolean isWordPart(char c) {
		return isWordStart(c) || (c >= '0' && c <= '9');
	}

}
