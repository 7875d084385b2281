package dev.lockstep.registry.internal;

import java.util.Collection;
import java.util.Comparator;

/**
 * Finding the nearest known name to a misspelled one, for error messages. Internal: not API.
 */
public final class Names {

	private Names() {
	}

	/**
	 * Return the known name closest to {@code name} by edit distance (ties broken
	 * alphabetically).
	 * @param name the unknown name
	 * @param known the known names, not empty
	 * @return the nearest known name
	 */
	public static String nearest(String name, Collection<String> known) {
		return known.stream()
			.min(Comparator.comparingInt((String candidate) -> distance(name, candidate))
				.thenComparing(Comparator.naturalOrder()))
			.orElseThrow();
	}

	private static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int cost = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
				current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

}
