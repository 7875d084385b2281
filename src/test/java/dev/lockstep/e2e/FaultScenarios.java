package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import dev.lockstep.test.kafka.KafkaBrokerProcess;
import org.apache.kafka.common.GroupType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault scenarios that run on every cluster of the compatibility matrix as well as in
 * their own tests: the worker SIGKILLed again and again, the broker SIGKILLed and
 * restarted under it, and a second worker with the same transactional id, each alone or
 * one after another. Each drives an {@link OrderPipeline} until the group's lag is 0; the
 * caller checks the output.
 */
final class FaultScenarios {

	private FaultScenarios() {
	}

	/**
	 * SIGKILL the worker at random moments (fixed seed) and restart it each time, then let
	 * a last one finish the input.
	 * @param kills how many times the worker is killed
	 * @param workerArgs the worker's arguments over the pipeline's defaults
	 */
	static void killStorm(OrderPipeline pipeline, Path workDir, int kills, String... workerArgs) throws Exception {
		Random random = new Random(20261129L);
		for (int kill = 1; kill <= kills; kill++) {
			SampleAppProcess worker = pipeline.startWorker(workDir, workerArgs);
			try {
				long target = pipeline.outputEndOffsets() + 200 + random.nextInt(3000);
				// A random moment: after a random amount of output (or, for some, during start-up).
				// Output end offsets count commit markers too, so once every input is committed
				// (lag 0) the target may never be reached: the kill then comes at rest.
				if (random.nextInt(5) != 0) {
					worker.awaitUntil("output end offsets " + target + " (or lag 0) before kill " + kill,
							Duration.ofMinutes(4), () -> pipeline.outputEndOffsets() >= target || !worker.isAlive()
									|| pipeline.groupLag() == 0);
				}
				assertThat(worker.isAlive()).as(worker::logTail).isTrue();
			}
			finally {
				worker.kill();
			}
		}
		SampleAppProcess last = pipeline.startWorker(workDir, workerArgs);
		try {
			last.awaitUntil("group lag 0 after the last restart", Duration.ofMinutes(8), () -> pipeline.groupLag() == 0);
		}
		finally {
			last.stop(Duration.ofSeconds(60));
		}
	}

	/**
	 * SIGKILL the broker process and restart it (same ports, same data) while the worker
	 * runs, each time after {@code step} more outputs.
	 * @param restarts how many times the broker is killed and restarted
	 * @param step the outputs between restarts
	 * @param workerArgs the worker's arguments over the pipeline's defaults
	 */
	static void brokerRestarts(OrderPipeline pipeline, KafkaBrokerProcess broker, Path workDir, int restarts, int step,
			String... workerArgs) throws Exception {
		SampleAppProcess worker = pipeline.startWorker(workDir, workerArgs);
		try {
			for (int restart = 1; restart <= restarts; restart++) {
				long target = pipeline.outputEndOffsets() + step;
				worker.awaitUntil(step + " more outputs before broker kill " + restart, Duration.ofMinutes(4),
						() -> pipeline.outputEndOffsets() >= target);
				broker.kill();
				broker.restart();
			}
			worker.awaitUntil("group lag 0", Duration.ofMinutes(6), () -> pipeline.groupLag() == 0);
			assertThat(worker.isAlive()).as(worker::logTail).isTrue();
		}
		catch (AssertionError | RuntimeException ex) {
			// The broker's side of the story: whether it runs, and what it last said.
			throw new AssertionError(ex.getMessage() + "\n" + broker.logTail(60), ex);
		}
		finally {
			worker.stop(Duration.ofSeconds(60));
		}
	}

	/**
	 * Run a second worker process with the same transactional ids as the first, which is
	 * fenced and says so; the orders are seeded in two halves, the second once both run.
	 * @param records how many orders in all
	 * @param workerArgs the workers' arguments over the pipeline's defaults
	 */
	static void zombie(OrderPipeline pipeline, Path workDir, int records, String... workerArgs) throws Exception {
		pipeline.seed(1, records / 2);
		SampleAppProcess first = pipeline.startWorker(workDir, workerArgs);
		try {
			long target = pipeline.outputEndOffsets() + records / 10;
			first.awaitUntil(records / 10 + " outputs of the first instance", Duration.ofMinutes(4),
					() -> pipeline.outputEndOffsets() >= target);
			takeOver(pipeline, workDir, first, records / 2 + 1, records, workerArgs);
		}
		finally {
			first.stop(Duration.ofSeconds(60));
		}
	}

	/**
	 * The three faults one after another on one pipeline, a quick pass over a cluster: the
	 * worker SIGKILLed {@code kills} times over the first half of the orders; the broker
	 * SIGKILLed and restarted under a running worker while the third quarter arrives; a
	 * second worker with the same transactional ids while the last quarter arrives.
	 * @param records how many orders in all
	 * @param kills how many times the worker is killed
	 * @param restartBroker whether the broker is killed and restarted (not on a line whose
	 * broker holds back committed transactions across a restart: BrokerCrashDurabilityTests)
	 */
	static void oneAfterAnother(OrderPipeline pipeline, KafkaBrokerProcess broker, Path workDir, int records,
			int kills, boolean restartBroker) throws Exception {
		pipeline.seed(1, records / 2);
		killStorm(pipeline, workDir, kills);
		SampleAppProcess first = pipeline.startWorker(workDir);
		try {
			pipeline.seed(records / 2 + 1, records * 3 / 4);
			long target = pipeline.outputEndOffsets() + records / 20;
			first.awaitUntil(records / 20 + " more outputs before the broker kill", Duration.ofMinutes(4),
					() -> pipeline.outputEndOffsets() >= target);
			if (restartBroker) {
				broker.kill();
				broker.restart();
			}
			first.awaitUntil("group lag 0 before the second instance", Duration.ofMinutes(6),
					() -> pipeline.groupLag() == 0);
			takeOver(pipeline, workDir, first, records * 3 / 4 + 1, records);
		}
		catch (AssertionError | RuntimeException ex) {
			throw new AssertionError(ex.getMessage() + "\n" + broker.logTail(60), ex);
		}
		finally {
			first.stop(Duration.ofSeconds(60));
		}
	}

	/**
	 * Start a second worker with the first's transactional ids, seed orders
	 * {@code from..to}, and wait until the first reports it was fenced and the second has
	 * committed everything; under the consumer group protocol (dynamic members), until
	 * everything is committed, whether or not the short pass gave a fence twice.
	 */
	private static void takeOver(OrderPipeline pipeline, Path workDir, SampleAppProcess first, long from, long to,
			String... workerArgs) throws Exception {
		SampleAppProcess second = pipeline.startWorker(workDir, workerArgs);
		try {
			// The second instance initialises its producers (the same transactional ids: the
			// first's are fenced) before its consumers join the group. Joined as new members
			// (dynamic), they leave the first to notice the fence at its next commit, which
			// new input brings; as the same static members, under the classic protocol they
			// take the first's places, which fences it at once, and under the consumer
			// protocol the group refuses them (the slots recover: REJOIN) until the first leaves.
			SampleAppProcess.awaitUntil("the second instance's consumers in the group, or refused by it",
					Duration.ofMinutes(4), () -> pipeline.groupMembers() == 4 || first.output().contains("took over")
							|| second.output().contains(" recovering ("),
					List.of(first, second));
			pipeline.seed(from, to);
			if (pipeline.groupProtocol() == GroupType.CONSUMER) {
				// Dynamic members, this protocol's default: the second joins beside the first
				// and they share the partitions. Each fence of the other's producer is
				// re-initialised from once; the second one, which needs input flowing to both
				// (this short pass may end before it), stops an instance FENCED. Either way
				// the output is exact and the first noticed the second: it re-initialised
				// from the second's fence or stopped FENCED, or the second recovered.
				SampleAppProcess.awaitUntil("group lag 0 with both instances in the group", Duration.ofMinutes(6),
						() -> pipeline.groupLag() == 0, List.of(first, second));
				assertThat(first.output().contains("producer fenced (another producer initialised the transactional id")
						|| first.output().contains("took over") || second.output().contains(" recovering ("))
					.as(() -> first.logTail() + "\n" + second.logTail())
					.isTrue();
			}
			else {
				first.awaitUntil("the first instance to report FENCED", Duration.ofMinutes(4),
						() -> first.output().contains("took over"));
				SampleAppProcess.awaitUntil("group lag 0", Duration.ofMinutes(6), () -> pipeline.groupLag() == 0,
						List.of(first, second));
			}
		}
		finally {
			second.stop(Duration.ofSeconds(60));
		}
	}

}
