package dev.lockstep.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import dev.lockstep.e2e.CompatibilityMatrixTests.Cluster;
import dev.lockstep.test.kafka.KafkaBrokerProcess;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 17, the sample service deployed as Spring services are: pods of one Deployment,
 * started from the identical command line and configuration, differing only in
 * {@code HOSTNAME} (the pod name), on a platform that says it is Kubernetes. While input
 * arrives: 1 → 3 pods (scale out), a rolling restart (each pod replaced by one with a new
 * name, the new one ready before the old one gets SIGTERM), one pod SIGKILLed and replaced,
 * 3 → 1 (scale in). The StatefulSet variant names pods {@code <set>-<ordinal>} and replaces
 * a pod under its own name (SIGTERM first, as a StatefulSet rolls).
 * <p>
 * Pass: every input exactly once in the read_committed output; no slot FENCED or FAILED
 * in any pod's log; every SIGTERM answered within Kubernetes' default 30 s grace period by
 * a graceful stop (the worker's "stopped" line, then the JVM's exit status for SIGTERM,
 * 143, or 0); every pod's readiness probe UP only once it is ready, and not down again for
 * the seconds after; every live pod ready and its {@code lockstep} component UP at the end;
 * no stop of any input partition's commits, nor of any output partition's last stable offset, longer
 * than {@link #LONGEST_PAUSE} (the 10 s transaction timeout a crashed pod's open
 * transaction may hold, the broker's check for timed-out transactions, and a rebalance).
 * Each run prints its {@code E2E} line and the longest pauses per step. Six partitions,
 * two slots per pod.
 */
@Tag("matrix")
class DeploymentReplicasTests {

	private static final boolean FULL = Boolean.getBoolean("lockstep.e2e.matrix.full");

	// More than the feed brings while the steps run; the rest is seeded at the end.
	private static final int RECORDS = 60_000;

	private static final int FEED_PER_SECOND = 300;

	private static final int PARTITIONS = 6;

	private static final Duration GRACE_PERIOD = Duration.ofSeconds(30);

	// A crashed pod's open transaction: its 10 s timeout, up to 10 s until the broker's next
	// check for timed-out transactions (its default), then a rebalance.
	private static final Duration LONGEST_PAUSE = Duration.ofSeconds(30);

	// How long a new pod's readiness must hold once first UP: the start-up flap came within a second.
	private static final Duration READY_HOLDS = Duration.ofSeconds(3);

	// A JVM ended by SIGTERM exits 128 + 15 once its shutdown hooks (the graceful stop) have run.
	private static final int SIGTERM_EXIT = 143;


	static Stream<Arguments> deployments() {
		Stream<Arguments> quick = Stream.of(Arguments.of(Cluster.KAFKA_41_CLASSIC_TV2, Kind.DEPLOYMENT),
				Arguments.of(Cluster.KAFKA_41_CONSUMER_TV2, Kind.DEPLOYMENT));
		Stream<Arguments> full = Stream.of(Arguments.of(Cluster.KAFKA_41_CLASSIC_TV2, Kind.STATEFUL_SET),
				Arguments.of(Cluster.KAFKA_41_CONSUMER_TV2, Kind.STATEFUL_SET));
		return FULL ? Stream.concat(quick, full) : quick;
	}

	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("deployments")
	void identicalReplicasScaleOutRollRecoverAndScaleInExactlyOnce(Cluster row, Kind kind, @TempDir Path workDir)
			throws Exception {
		long started = System.nanoTime();
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start(row.broker())) {
			OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS)
				.groupProtocol(row.groupProtocol())
				.identityFromEnvironment();
			pipeline.createTopics(PARTITIONS, (short) 1);
			Deployment deployment = new Deployment(pipeline, workDir, kind);
			Map<String, Pauses> pauses = new LinkedHashMap<>();
			try (CommitProgress commits = new CommitProgress(broker.bootstrapServers());
					Feed feed = new Feed(pipeline, FEED_PER_SECOND)) {
				Pod first = deployment.add();
				first.process().awaitUntil("the first pod's first commits", Duration.ofMinutes(4),
						() -> commits.progress().started());
				long from = System.nanoTime();
				deployment.add();
				deployment.add();
				pauses.put("scale out 1 to 3", Pauses.of(commits, from, System.nanoTime()));
				// What an autoscaler and the dashboard sum: each partition's lag from its owner alone.
				deployment.awaitUntil("every input partition's lag published by exactly one pod",
						() -> deployment.lagPublishers().equals(onePublisherPerPartition(PARTITIONS)));
				from = System.nanoTime();
				for (Pod pod : List.copyOf(deployment.pods())) {
					deployment.replace(pod);
				}
				pauses.put("rolling restart", Pauses.of(commits, from, System.nanoTime()));
				from = System.nanoTime();
				deployment.killAndReplace(deployment.pods().get(1));
				pauses.put("SIGKILL and replace", Pauses.of(commits, from, System.nanoTime()));
				from = System.nanoTime();
				deployment.scaleIn(deployment.pods().get(2));
				deployment.scaleIn(deployment.pods().get(1));
				long scaledIn = System.nanoTime();
				deployment.awaitUntil("commits after the scale-in", () -> commits.progress().steppedSince(scaledIn));
				pauses.put("scale in 3 to 1", Pauses.of(commits, from, System.nanoTime()));
				long fed = feed.stop();
				System.out.println("E2E identical-replicas[" + row + " " + kind + "] longest pause per step, "
						+ "group commits/an input partition's commits/an output partition's stable offset: " + pauses);
				assertThat(fed).as("orders fed while the steps ran (the feed must outlast them)")
					.isLessThan(pipeline.records());
				pipeline.seed(fed + 1, pipeline.records());
				deployment.awaitUntil("group lag 0 after the steps", () -> pipeline.groupLag() == 0);
				deployment.assertHealthy();
				assertThat(pauses).as("longest pauses per step").allSatisfy((step, pause) -> {
					assertThat(pause.inputPartition()).as(step + ": an input partition's commits")
						.isLessThanOrEqualTo(LONGEST_PAUSE);
					assertThat(pause.outputPartition()).as(step + ": an output partition's stable offset")
						.isLessThanOrEqualTo(LONGEST_PAUSE);
				});
				pipeline.assertExactOutput("identical-replicas[" + row.describe(broker, pipeline) + " " + kind + "]",
						1, deployment.started() - 1, started);
			}
			catch (AssertionError | RuntimeException ex) {
				throw new AssertionError(ex.getMessage() + "\n" + deployment.logTails() + "\n" + broker.logTail(40), ex);
			}
			finally {
				deployment.close();
			}
		}
	}

	private static Map<Integer, Integer> onePublisherPerPartition(int partitions) {
		Map<Integer, Integer> expected = new TreeMap<>();
		for (int partition = 0; partition < partitions; partition++) {
			expected.put(partition, 1);
		}
		return expected;
	}

	/** The longest pauses of one step, of the group's commits, one input and one output partition. */
	record Pauses(Duration group, Duration inputPartition, Duration outputPartition) {

		static Pauses of(CommitProgress commits, long from, long to) {
			return new Pauses(commits.progress().longestPause(from, to), commits.longestInputPartitionPause(from, to),
					commits.longestOutputPartitionPause(from, to));
		}

		@Override
		public String toString() {
			return String.format("%.1fs/%.1fs/%.1fs", this.group.toMillis() / 1000.0,
					this.inputPartition.toMillis() / 1000.0, this.outputPartition.toMillis() / 1000.0);
		}

	}

	/** How the pods are named and replaced. */
	enum Kind {

		/** New name per pod ({@code <deployment>-<template hash>-<5 characters>}), the new pod first. */
		DEPLOYMENT,

		/** {@code <set>-<ordinal>}, a pod replaced under its own name once it has stopped. */
		STATEFUL_SET

	}

	/** A pod: its name, its process and its actuator. */
	record Pod(String name, SampleAppProcess process, Actuator actuator) {

		boolean isReady() {
			return this.actuator.statusCode("/actuator/health/readiness") == 200;
		}

	}

	/**
	 * The pods of one Deployment (or StatefulSet) of the sample service, as the platform
	 * starts, replaces and stops them.
	 */
	static final class Deployment implements AutoCloseable {

		private final OrderPipeline pipeline;

		private final Path workDir;

		private final Kind kind;

		private final List<Pod> pods = new ArrayList<>();

		private final List<Pod> everyPod = new ArrayList<>();

		private final List<String> unclean = new ArrayList<>();

		private int templateVersion = 1;

		Deployment(OrderPipeline pipeline, Path workDir, Kind kind) {
			this.pipeline = pipeline;
			this.workDir = workDir;
			this.kind = kind;
		}

		List<Pod> pods() {
			return this.pods;
		}

		int started() {
			return this.everyPod.size();
		}

		/** Start one more pod and wait until it is ready. */
		Pod add() {
			return start(this.pods.size(), nextName(this.pods.size()));
		}

		/** Replace a pod as a rolling update does. */
		void replace(Pod pod) throws InterruptedException {
			int index = this.pods.indexOf(pod);
			if (this.kind == Kind.DEPLOYMENT) {
				this.templateVersion++;
				start(index, nextName(index));
				terminate(pod);
			}
			else {
				terminate(pod);
				start(index, pod.name());
			}
		}

		/** SIGKILL a pod, as a crash or an evicted node would, and start its replacement. */
		void killAndReplace(Pod pod) throws InterruptedException {
			int index = this.pods.indexOf(pod);
			pod.process().kill();
			this.pods.remove(pod);
			start(index, (this.kind == Kind.DEPLOYMENT) ? nextName(index) : pod.name());
		}

		/** Stop a pod for good, as a scale-in does. */
		void scaleIn(Pod pod) throws InterruptedException {
			terminate(pod);
		}

		void awaitUntil(String what, Callable<Boolean> condition) {
			SampleAppProcess.awaitUntil(what, Duration.ofMinutes(4), condition,
					this.pods.stream().map(Pod::process).toList());
		}

		/**
		 * How many live pods publish a lag gauge for each input partition, read from their
		 * {@code /actuator/prometheus} as Prometheus scrapes it.
		 */
		Map<Integer, Integer> lagPublishers() {
			Map<Integer, Integer> publishers = new TreeMap<>();
			for (Pod pod : this.pods) {
				for (Map<String, String> labels : pod.actuator().series("/actuator/prometheus", "lockstep_worker_lag")) {
					if (OrderPipeline.INPUT.equals(labels.get("topic"))) {
						publishers.merge(Integer.parseInt(labels.get("partition")), 1, Integer::sum);
					}
				}
			}
			return publishers;
		}

		void assertHealthy() {
			assertThat(this.unclean).as("pods that did not stop gracefully within the grace period after SIGTERM")
				.isEmpty();
			for (Pod pod : this.everyPod) {
				assertThat(pod.process().output()).as("%s's log", pod.name())
					.doesNotContain(" FENCED: ")
					.doesNotContain(" FAILED: ")
					.doesNotContain("took over");
			}
			for (Pod pod : this.pods) {
				assertThat(pod.process().isAlive()).as("%s alive", pod.name()).isTrue();
				assertThat(pod.isReady()).as("%s ready", pod.name()).isTrue();
				assertThat(pod.actuator().json("/actuator/health").path("components").path("lockstep").path("status")
					.asText()).as("%s's lockstep component", pod.name()).isEqualTo("UP");
			}
		}

		String logTails() {
			return String.join("\n", this.everyPod.stream()
				.map((pod) -> "=== " + pod.name() + "\n" + pod.process().logTail())
				.toList());
		}

		private String nextName(int index) {
			if (this.kind == Kind.STATEFUL_SET) {
				return "normalizer-" + index;
			}
			// A ReplicaSet's hash per template version, five characters per pod.
			return "normalizer-" + Integer.toHexString(0x5c8d7f00 + this.templateVersion) + "-" + "bcdfghjklmnpqrstvwxz"
				.substring(this.everyPod.size() % 15, this.everyPod.size() % 15 + 5);
		}

		private Pod start(int index, String name) {
			Actuator actuator = Actuator.onFreePort();
			Map<String, String> environment = new LinkedHashMap<>(SampleAppProcess.KUBERNETES);
			environment.put("HOSTNAME", name);
			List<String> args = new ArrayList<>(actuator.args("health,lockstep,prometheus"));
			// The worker's start-up line (instance, membership) and its "stopped" line.
			args.add("--logging.level.dev.lockstep.worker.Worker=INFO");
			SampleAppProcess process = this.pipeline.startWorker(this.workDir, environment,
					args.toArray(String[]::new));
			Pod pod = new Pod(name, process, actuator);
			this.everyPod.add(pod);
			this.pods.add(Math.min(index, this.pods.size()), pod);
			// Every answer of the readiness probe, from the start until it has been UP for a while.
			List<Integer> answers = new ArrayList<>();
			AtomicLong firstReady = new AtomicLong();
			process.awaitUntil(name + " ready (its readiness probe answering 200) for " + READY_HOLDS.toSeconds() + " s",
					Duration.ofMinutes(4), () -> {
						int answer = actuator.statusCode("/actuator/health/readiness");
						answers.add(answer);
						if (answer == 200) {
							firstReady.compareAndSet(0, System.nanoTime());
						}
						return firstReady.get() != 0 && System.nanoTime() - firstReady.get() >= READY_HOLDS.toNanos();
					});
			assertThat(answers.subList(answers.indexOf(200), answers.size()))
				.as("%s's readiness answers once it was first UP (a start-up flap)", name)
				.containsOnly(200);
			return pod;
		}

		private void terminate(Pod pod) throws InterruptedException {
			this.pods.remove(pod);
			int exit = pod.process().terminate(GRACE_PERIOD);
			boolean stopped = pod.process().output().contains("Worker normalizer stopped");
			if ((exit != 0 && exit != SIGTERM_EXIT) || !stopped) {
				this.unclean.add(pod.name() + " (exit " + exit + (stopped ? "" : ", no graceful stop") + ")");
			}
		}

		@Override
		public void close() throws InterruptedException {
			for (Pod pod : this.pods) {
				pod.process().stop(Duration.ofSeconds(60));
			}
		}

	}

}
