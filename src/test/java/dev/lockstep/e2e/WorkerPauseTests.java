package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lockstep.test.kafka.InJvmKafkaBroker;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 10 of the exactly-once proof: the worker process frozen (SIGSTOP) while its
 * transactions are open, for longer than its transaction timeout, then resumed (SIGCONT),
 * as a long GC pause, a frozen VM or a descheduled container would. Meanwhile the
 * transaction coordinator aborts the timed-out transactions and bumps the producer epoch.
 * No other instance exists, so the same process must tell that apart from a takeover,
 * recover by itself and finish all input: never FENCED, output exact.
 * <p>
 * On the runtime before issue 12 this is a race the worker mostly loses: it meets
 * {@code ProducerFencedException}, stops as FENCED for good ("another instance ... took
 * over"), and processes nothing more; in some runs it meets
 * {@code InvalidProducerEpochException} instead and recovers. Three pauses, each over two
 * slots' open transactions, make the failure all but certain there.
 */
class WorkerPauseTests {

	private static final int PAUSES = 3;

	private static final int CHUNK = 1_000;

	// A chunk before each pause and one after the last.
	private static final int RECORDS = CHUNK * (PAUSES + 1);

	private static final Duration PAUSE = Duration.ofSeconds(25);

	private static final List<String> TRANSACTIONAL_IDS = List.of("cookbook-normalizer-0-0", "cookbook-normalizer-0-1");

	@Test
	void workerFrozenPastItsTransactionTimeoutMidTransactionRecoversByItselfNeverFencedAndOutputStaysExact(
			@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS);
			pipeline.createTopics(4, (short) 1);
			Actuator actuator = Actuator.onFreePort();
			// Transactions open for up to 6 s and time out after 10 s, so a 25 s pause outlasts
			// them (the coordinator checks for timed-out transactions every 10 s); a 60 s
			// session keeps the group membership through the pause, so what the worker meets
			// on resuming is the aborted transaction alone.
			List<String> args = new ArrayList<>(actuator.args("health,lockstep"));
			args.addAll(List.of("--lockstep.workers.normalizer.transaction.max-interval=6s",
					"--lockstep.workers.normalizer.transaction.timeout=10s",
					"--lockstep.workers.normalizer.consumer.session.timeout.ms=60000"));
			SampleAppProcess worker = pipeline.startWorker(workDir, args.toArray(String[]::new));
			try {
				worker.awaitUntil("both slots' consumers in the group", Duration.ofMinutes(4),
						() -> pipeline.groupMembers() == 2);
				for (int pause = 1; pause <= PAUSES; pause++) {
					pipeline.seed((long) (pause - 1) * CHUNK + 1, (long) pause * CHUNK);
					Set<String> open = freezeWithTransactionsOpen(pipeline, worker);
					long frozen = System.nanoTime();
					try {
						worker.awaitUntil("the coordinator to abort the frozen worker's timed-out transactions " + open
								+ " and " + PAUSE.toSeconds() + " s to pass", Duration.ofMinutes(2),
								() -> System.nanoTime() - frozen >= PAUSE.toNanos()
										&& aborted(pipeline.transactions(TRANSACTIONAL_IDS), open));
					}
					finally {
						worker.resume();
					}
					long seeded = (long) pause * CHUNK;
					worker.awaitUntil("the " + seeded + " orders seeded so far committed after pause " + pause,
							Duration.ofMinutes(4), () -> pipeline.groupLag() == 0 || fenced(worker, actuator));
					assertNeverFenced(worker, actuator, "after pause " + pause);
				}
				pipeline.seed((long) PAUSES * CHUNK + 1, RECORDS);
				worker.awaitUntil("group lag 0", Duration.ofMinutes(4),
						() -> pipeline.groupLag() == 0 || fenced(worker, actuator));
				assertNeverFenced(worker, actuator, "at the end");
				assertThat(worker.isAlive()).as(worker::logTail).isTrue();
			}
			finally {
				worker.resume();
				worker.stop(Duration.ofSeconds(60));
			}
			pipeline.assertExactOutput("worker-paused-past-transaction-timeout", 0, 0, started);
		}
	}

	/**
	 * SIGSTOP the worker at a moment when at least one of its transactions is open (as its
	 * coordinator sees it); resume and try again until then.
	 * @return the transactional ids whose transactions are open
	 */
	private static Set<String> freezeWithTransactionsOpen(OrderPipeline pipeline, SampleAppProcess worker) {
		List<Set<String>> open = new ArrayList<>();
		worker.awaitUntil("a transaction open when the worker is frozen", Duration.ofMinutes(2), () -> {
			worker.suspend();
			Set<String> ongoing = pipeline.transactions(TRANSACTIONAL_IDS)
				.entrySet()
				.stream()
				.filter((entry) -> entry.getValue().state() == TransactionState.ONGOING)
				.map(Map.Entry::getKey)
				.collect(Collectors.toSet());
			if (ongoing.isEmpty()) {
				worker.resume();
				return false;
			}
			open.add(ongoing);
			return true;
		});
		return open.get(0);
	}

	private static boolean aborted(Map<String, TransactionDescription> transactions, Set<String> ids) {
		return ids.stream()
			.allMatch((id) -> transactions.containsKey(id)
					&& transactions.get(id).state() == TransactionState.COMPLETE_ABORT);
	}

	private static boolean fenced(SampleAppProcess worker, Actuator actuator) {
		return !worker.isAlive() || worker.output().contains("took over") || slotStatuses(actuator).contains("FENCED");
	}

	private static void assertNeverFenced(SampleAppProcess worker, Actuator actuator, String when) {
		// "recovering (FENCED)" names the failure's category; a slot that stops says
		// "FENCED: another instance ... took over".
		List<String> fencedLines = worker.output()
			.lines()
			.filter((line) -> line.contains("FENCED:") || line.contains("took over"))
			.toList();
		assertThat(fencedLines).as(() -> "log lines saying the slot stopped FENCED " + when + "\n" + worker.logTail())
			.isEmpty();
		assertThat(slotStatuses(actuator)).as(() -> "slot statuses " + when + "\n" + worker.logTail())
			.doesNotContain("FENCED");
	}

	private static List<String> slotStatuses(Actuator actuator) {
		List<String> statuses = new ArrayList<>();
		for (JsonNode slot : actuator.json("/actuator/lockstep/normalizer").path("slots")) {
			statuses.add(slot.path("status").asText());
		}
		return statuses;
	}

}
