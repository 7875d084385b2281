package dev.lockstep.worker;

/**
 * Kafka's names of its metadata version levels from level 7 (3.3-IV3, the first KRaft
 * production level), fixed once released: Kafka's client API gives the level, its
 * server-side list the name. Checked against Kafka's own list of the line Lockstep is
 * built with; the compatibility matrix checks each broker line's name on the running
 * sample.
 */
final class MetadataVersions {

	private static final String[] NAMES = { "3.3-IV3", "3.4-IV0", "3.5-IV0", "3.5-IV1", "3.5-IV2", "3.6-IV0",
			"3.6-IV1", "3.6-IV2", "3.7-IV0", "3.7-IV1", "3.7-IV2", "3.7-IV3", "3.7-IV4", "3.8-IV0", "3.9-IV0",
			"4.0-IV0", "4.0-IV1", "4.0-IV2", "4.0-IV3", "4.1-IV0", "4.1-IV1", "4.2-IV0", "4.2-IV1", "4.3-IV0",
			"4.4-IV0", "4.4-IV1", "4.4-IV2" };

	private static final int FIRST_LEVEL = 7;

	private MetadataVersions() {
	}

	/**
	 * Return the name of a metadata version level, such as {@code 4.1-IV1} for 27.
	 * @param level the level
	 * @return its name, or {@code level N} for a level this Lockstep does not know
	 */
	static String name(int level) {
		int index = level - FIRST_LEVEL;
		return (index >= 0 && index < NAMES.length) ? NAMES[index] : "level " + level;
	}

}
