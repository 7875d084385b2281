package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;

import dev.lockstep.test.kafka.InJvmKafkaBroker;
import dev.lockstep.test.kafka.KafkaBrokerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample jar as a worker service (YAML-configured workers, no web server) exits with
 * a code that says how its workers ended, never 0 for a run that failed: a Kubernetes Job
 * or a {@code Restart=on-failure} unit reads it.
 */
class WorkerServiceExitTests {

	// The codes docs/recovery.md documents (WorkerExit): 0 completed, 1 a worker FAILED.
	private static final int COMPLETED = 0;

	private static final int FAILED = 1;

	private static final Duration TIMEOUT = Duration.ofMinutes(3);

	// Kubernetes' default terminationGracePeriodSeconds: past it, the pod gets SIGKILL.
	private static final Duration GRACE_PERIOD = Duration.ofSeconds(30);

	@Test
	void serviceWhoseWorkersFailedExitsWithTheFailedCode(@TempDir Path workDir) throws Exception {
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), 10);
			pipeline.createTopics(2, (short) 1);
			// No input within the input deadline: both slots FAILED.
			SampleAppProcess service = pipeline.startWorker(workDir, "--lockstep.workers.normalizer.idle-timeout=3s");
			assertThat(service.awaitExit(TIMEOUT)).as(service::logTail).isEqualTo(FAILED);
			assertThat(service.output()).contains("input deadline exceeded")
				.contains("Every worker has ended ([normalizer FAILED]): exiting with code 1");
		}
	}

	@Test
	void oneShotServiceExitsZeroOnceItsBudgetIsCommitted(@TempDir Path workDir) throws Exception {
		try (InJvmKafkaBroker broker = InJvmKafkaBroker.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), 200);
			pipeline.createTopics(2, (short) 1);
			pipeline.seed();
			long started = System.nanoTime();
			SampleAppProcess service = pipeline.startWorker(workDir,
					"--lockstep.workers.normalizer.stop-after-records=200");
			assertThat(service.awaitExit(TIMEOUT)).as(service::logTail).isEqualTo(COMPLETED);
			assertThat(pipeline.groupLag()).isZero();
			pipeline.assertExactOutput("one-shot-service", 0, 0, started);
		}
	}

	@ParameterizedTest(name = "SIGTERM {0} s after the broker went")
	@ValueSource(ints = { 0, 15 })
	void serviceStoppedWhileItsBrokerIsGoneExitsWithinKubernetesGracePeriod(int secondsGone, @TempDir Path workDir)
			throws Exception {
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start()) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), 50_000);
			pipeline.createTopics(2, (short) 1);
			pipeline.seed();
			SampleAppProcess service = pipeline.startWorker(workDir,
					"--logging.level.dev.lockstep.worker.Worker=INFO");
			// Mid-stream: transactions open when the broker goes.
			service.awaitUntil("the first orders committed", TIMEOUT,
					() -> pipeline.groupLag() < pipeline.records());
			broker.kill();
			if (secondsGone > 0) {
				// The slots retrying and recovering against a broker that does not answer.
				service.awaitHolding("the service running with its broker gone", Duration.ofSeconds(secondsGone),
						TIMEOUT, service::isAlive);
			}
			long stopping = System.nanoTime();
			int exit = service.terminate(GRACE_PERIOD);
			Duration took = Duration.ofNanos(System.nanoTime() - stopping);
			System.out.println("E2E sigterm-broker-gone[" + secondsGone + " s]: exit " + exit + " after "
					+ took.toMillis() + " ms");
			assertThat(exit).as("exit status after SIGTERM, -1 when killed after %s\n%s", GRACE_PERIOD,
					service.logTail()).isNotEqualTo(-1);
			assertThat(service.output()).contains("Worker normalizer stopped");
		}
	}

}
