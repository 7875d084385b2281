package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.lockstep.test.kafka.KafkaBrokerProcess;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 8 of the exactly-once proof, the bounded soak: input at a steady rate for ten
 * minutes while the worker process is restarted (SIGTERM, then a new process) every
 * minute; output exact at the end and the worker's resident memory stable. Tagged
 * {@code soak}: only the {@code soak} Maven profile runs it (see docs/reliability.md).
 */
@Tag("soak")
class SoakTests {

	private static final Duration DURATION = Duration.parse(System.getProperty("lockstep.soak.duration", "PT10M"));

	private static final Duration RESTART_EVERY = Duration
		.parse(System.getProperty("lockstep.soak.restart-every", "PT1M"));

	private static final int RATE = Integer.getInteger("lockstep.soak.rate", 500);

	@Test
	void steadyInputWithTheWorkerRestartedEveryMinuteStaysExactAndKeepsItsMemory(@TempDir Path workDir)
			throws Exception {
		long started = System.nanoTime();
		int records = (int) (RATE * DURATION.toSeconds());
		ScheduledExecutorService feeder = Executors.newSingleThreadScheduledExecutor();
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), records);
			pipeline.createTopics(4, (short) 1);
			AtomicLong next = new AtomicLong(1);
			try (KafkaProducer<byte[], byte[]> producer = pipeline.producer()) {
				// A tenth of the rate every 100 ms, ids in increasing order, until all are sent.
				feeder.scheduleAtFixedRate(() -> {
					for (int i = 0; i < RATE / 10 && next.get() <= records; i++) {
						producer.send(pipeline.order(next.getAndIncrement(), false));
					}
				}, 0, 100, TimeUnit.MILLISECONDS);
				List<String> memory = new ArrayList<>();
				long firstRss = 0;
				long lastRss = 0;
				int restarts = 0;
				SampleAppProcess worker = pipeline.startWorker(workDir);
				try {
					while (next.get() <= records) {
						SampleAppProcess current = worker;
						long restartAt = System.nanoTime() + RESTART_EVERY.toNanos();
						current.awaitUntil("the next restart", RESTART_EVERY.plusMinutes(1),
								() -> System.nanoTime() >= restartAt || next.get() > records || !current.isAlive());
						assertThat(current.isAlive()).as(current::logTail).isTrue();
						lastRss = current.residentSetKiB();
						firstRss = (restarts == 0) ? lastRss : firstRss;
						memory.add(Long.toString(lastRss / 1024));
						if (next.get() <= records) {
							current.stop(Duration.ofSeconds(60));
							worker = pipeline.startWorker(workDir);
							restarts++;
						}
					}
					producer.flush();
					SampleAppProcess last = worker;
					last.awaitUntil("group lag 0", Duration.ofMinutes(8), () -> pipeline.groupLag() == 0);
				}
				finally {
					worker.stop(Duration.ofSeconds(60));
				}
				System.out.printf("E2E soak memory: worker RSS after each run (MiB) %s; first %d, last %d%n",
						String.join(" ", memory), firstRss / 1024, lastRss / 1024);
				pipeline.assertExactOutput("soak", 0, restarts, started);
				// Every run does the same work, so its footprint must not creep from run to run.
				assertThat(lastRss).as("worker RSS of the last run against the first (KiB)")
					.isLessThanOrEqualTo(firstRss * 3 / 2);
			}
		}
		finally {
			feeder.shutdownNow();
		}
	}

}
