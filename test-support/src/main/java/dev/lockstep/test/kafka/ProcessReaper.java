package dev.lockstep.test.kafka;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kills the broker processes this JVM started when it exits, in case a test forgot to
 * close one. (A JVM that is itself killed is covered by the broker's stdin watchdog.)
 */
final class ProcessReaper {

	private static final Set<Process> processes = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime()
			.addShutdownHook(new Thread(() -> processes.forEach(Process::destroyForcibly), "broker-process-reaper"));
	}

	private ProcessReaper() {
	}

	static void register(Process process) {
		processes.removeIf((existing) -> !existing.isAlive());
		processes.add(process);
	}

}
