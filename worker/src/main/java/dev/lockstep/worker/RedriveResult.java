package dev.lockstep.worker;

import java.util.HashMap;
import java.util.Map;

/**
 * What a {@link Redrive} did, or one of its transactions: counted once committed.
 *
 * @param redriven records sent back to the topic each was read from
 * @param keptByLoopGuard selected records that stay in quarantine: sent back as often as
 * the request allows already (or with a redrive count that is no number)
 * @param notSelected records the request's filters left in quarantine, and records an
 * operator skipped on purpose
 * @param unroutable records that name no source topic of the worker to go back to
 * @param redrivenTo records sent back, by topic
 */
public record RedriveResult(long redriven, long keptByLoopGuard, long notSelected, long unroutable,
		Map<String, Long> redrivenTo) {

	/** Nothing done. */
	public static final RedriveResult NONE = new RedriveResult(0, 0, 0, 0, Map.of());

	public RedriveResult {
		redrivenTo = Map.copyOf(redrivenTo);
	}

	/**
	 * Return what this and another part of a redrive did together.
	 * @param other the other part
	 * @return the sum
	 */
	public RedriveResult plus(RedriveResult other) {
		Map<String, Long> to = new HashMap<>(this.redrivenTo);
		other.redrivenTo.forEach((topic, sent) -> to.merge(topic, sent, Long::sum));
		return new RedriveResult(this.redriven + other.redriven, this.keptByLoopGuard + other.keptByLoopGuard,
				this.notSelected + other.notSelected, this.unroutable + other.unroutable, to);
	}

}
