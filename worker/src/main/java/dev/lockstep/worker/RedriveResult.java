package dev.lockstep.worker;

import java.util.Map;

/**
 * What a {@link Redrive} did, once every quarantined record there was when it started
 * was read and its transaction committed.
 *
 * @param redriven records sent back to the topic each was read from
 * @param keptByLoopGuard selected records that stay in quarantine: sent back as often as
 * the request allows already
 * @param notSelected records the request's filters left in quarantine (or that name no
 * topic to go back to)
 * @param redrivenTo records sent back, by topic
 */
public record RedriveResult(long redriven, long keptByLoopGuard, long notSelected,
		Map<String, Long> redrivenTo) {

}
