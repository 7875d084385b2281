package dev.lockstep.benchmarks.rebalance;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.lockstep.benchmarks.BenchmarkBroker;
import dev.lockstep.test.kafka.KafkaBrokerProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The rebalance harness: how long output stops when the group changes, under the classic
 * and the consumer (KIP-848) group protocol: instances with a generated identity, new on
 * every start (a Deployment's pods: dynamic members), and instances with a stable identity,
 * restarted in place (a StatefulSet's pods) as dynamic members, as static members that
 * leave the group on a graceful stop (Lockstep's default for them) and as static members
 * that keep their place ({@code leave-group-on-stop: false}).
 * <p>
 * One Kafka broker process with Kafka's default group timeouts (a 45 s session under both
 * protocols), input fed at a steady rate into 8 partitions; one-slot worker instances in
 * JVMs of their own ({@link RebalanceInstanceMain}), each a worker with Lockstep's
 * defaults that copies its input. Per configuration, one sequence of events: a second instance joins;
 * it is SIGKILLed and started again at once (a crash restart); it is stopped (SIGTERM) and
 * started again (a rolling restart); it is stopped for good (it leaves). An event's stall
 * is the longest time any partition went without visible ({@code read_committed}) output,
 * from the event (the joining instance's subscribe, the signal) until the group has its
 * new members and partitions and every partition has output again: with nothing
 * happening, a transaction interval or two (0.1 to 0.3 s). Partitions are the input's
 * (the output's are the producer's choice). Prints a table and
 * {@code REBALANCE} lines.
 */
public final class RebalanceBenchmarkMain {

	private static final int PARTITIONS = 8;

	private static final int RATE = Integer.getInteger("bench.rate", 2_000);

	private static final int ROUNDS = Integer.getInteger("bench.rebalance-runs", 3);

	private static final Duration EVENT_LIMIT = Duration.ofSeconds(120);

	private static final Pattern STARTED = Pattern.compile("STARTED (\\d+)");

	private static final List<String> EVENTS = List.of("join", "crash-restart", "restart", "leave");

	private RebalanceBenchmarkMain() {
	}

	public static void main(String[] args) throws Exception {
		List<String> protocols = List.of(System.getProperty("bench.protocols", "classic,consumer").split(","));
		List<String> memberships = List
			.of(System.getProperty("bench.memberships", "generated,dynamic,static,static-remain").split(","));
		Map<String, List<Map<String, Double>>> results = new LinkedHashMap<>();
		try (KafkaBrokerProcess broker = BenchmarkBroker.start()) {
			for (int round = 1; round <= ROUNDS; round++) {
				for (String protocol : protocols) {
					for (String membership : memberships) {
						String configuration = protocol + " " + membership;
						Map<String, Double> stalls = new Run(broker.bootstrapServers(), protocol, membership).run();
						System.out.println("round " + round + " " + configuration + " " + stalls);
						results.computeIfAbsent(configuration, (key) -> new ArrayList<>()).add(stalls);
					}
				}
			}
		}
		print(results);
	}

	private static void print(Map<String, List<Map<String, Double>>> results) {
		System.out.println();
		System.out.println("| longest stall: protocol, membership | " + String.join(" | ", EVENTS) + " |");
		System.out.println("|---|" + "---|".repeat(EVENTS.size()));
		results.forEach((configuration, runs) -> System.out.println("| " + configuration.replace(" ", ", ") + " | "
				+ EVENTS.stream().map((event) -> format(runs, event)).collect(Collectors.joining(" | ")) + " |"));
		System.out.println();
		results.forEach((configuration, runs) -> System.out.println("REBALANCE " + configuration + " "
				+ EVENTS.stream()
					.map((event) -> event + "=" + String.format(Locale.ROOT, "%.2fs", median(runs, event)))
					.collect(Collectors.joining(" "))));
	}

	private static String format(List<Map<String, Double>> runs, String event) {
		List<Double> values = runs.stream().map((run) -> run.get(event)).sorted().toList();
		return String.format(Locale.ROOT, "%.2f s (%.2f – %.2f)", median(runs, event), values.get(0),
				values.get(values.size() - 1));
	}

	private static double median(List<Map<String, Double>> runs, String event) {
		List<Double> values = runs.stream().map((run) -> run.get(event)).sorted().toList();
		return values.get(values.size() / 2);
	}

	/**
	 * One configuration's sequence of events, on topics and a group of its own.
	 */
	private static final class Run {

		private final String bootstrapServers;

		private final String protocol;

		private final String membership;

		private final String id = UUID.randomUUID().toString().substring(0, 8);

		private final String input = "rb-in-" + this.id;

		private final String output = "rb-out-" + this.id;

		private final Arrivals arrivals = new Arrivals();

		private final AtomicBoolean running = new AtomicBoolean(true);

		Run(String bootstrapServers, String protocol, String membership) {
			this.bootstrapServers = bootstrapServers;
			this.protocol = protocol;
			this.membership = membership;
		}

		Map<String, Double> run() throws Exception {
			try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers))) {
				admin.createTopics(List.of(new NewTopic(this.input, PARTITIONS, (short) 1),
						new NewTopic(this.output, PARTITIONS, (short) 1)))
					.all()
					.get();
			}
			Thread feeder = new Thread(this::feed, "rebalance-feeder");
			Thread observer = new Thread(this::observe, "rebalance-observer");
			feeder.start();
			observer.start();
			Map<String, Double> stalls = new LinkedHashMap<>();
			Instance first = Instance.start(this, "a");
			Instance second = null;
			try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers))) {
				stall(admin, first.startedMillis(), 1);
				second = Instance.start(this, "b");
				stalls.put("join", stall(admin, second.startedMillis(), 2));
				long killed = second.kill();
				second = Instance.start(this, "b");
				stalls.put("crash-restart", stall(admin, killed, 2));
				long stopped = second.stop();
				second = Instance.start(this, "b");
				stalls.put("restart", stall(admin, stopped, 2));
				stalls.put("leave", stall(admin, second.stop(), 1));
				second = null;
			}
			finally {
				if (second != null) {
					second.kill();
				}
				first.kill();
				this.running.set(false);
				feeder.join();
				observer.join();
			}
			return stalls;
		}

		/**
		 * Wait until the group has its new members, all partitions assigned, and every
		 * partition has output again; return the longest stall of a partition since the event.
		 */
		private double stall(Admin admin, long eventMillis, int members) throws Exception {
			long deadline = System.currentTimeMillis() + EVENT_LIMIT.toMillis();
			while (!settled(admin, members)) {
				if (System.currentTimeMillis() > deadline) {
					throw new IllegalStateException(this.protocol + " " + this.membership + ": the group did not"
							+ " settle with " + members + " member(s) within " + EVENT_LIMIT);
				}
				Thread.sleep(100);
			}
			long settled = System.currentTimeMillis();
			long resumed;
			while ((resumed = this.arrivals.allResumedAfter(settled, PARTITIONS)) == 0) {
				if (System.currentTimeMillis() > deadline) {
					throw new IllegalStateException(this.protocol + " " + this.membership + ": output did not resume"
							+ " on every partition within " + EVENT_LIMIT);
				}
				Thread.sleep(100);
			}
			double stall = this.arrivals.longestGap(eventMillis, resumed, PARTITIONS) / 1000.0;
			// Steady again before the next event.
			Thread.sleep(2_000);
			return stall;
		}

		private boolean settled(Admin admin, int members) throws Exception {
			ConsumerGroupDescription group;
			try {
				group = admin.describeConsumerGroups(List.of(this.group())).all().get().get(this.group());
			}
			catch (ExecutionException ex) {
				// Not yet created by its first member's join.
				return false;
			}
			return group.members().size() == members
					&& group.members().stream().allMatch((member) -> !member.assignment().topicPartitions().isEmpty())
					&& group.members().stream().mapToInt((member) -> member.assignment().topicPartitions().size()).sum()
							== PARTITIONS;
		}

		private String group() {
			return "rb-group-" + this.id;
		}

		private void feed() {
			Properties props = new Properties();
			props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers);
			props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
			// A feeder that may duplicate is fine here, and without idempotence a new topic's
			// first produce requests cannot leave it retrying out-of-order sequences.
			props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
			props.put(ProducerConfig.ACKS_CONFIG, "1");
			try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
					new ByteArraySerializer())) {
				long sent = 0;
				long start = System.nanoTime();
				while (this.running.get()) {
					long due = (System.nanoTime() - start) * RATE / 1_000_000_000L;
					for (; sent < due; sent++) {
						int partition = (int) (sent % PARTITIONS);
						ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(this.input, partition, null,
								new byte[16]);
						record.headers().add("sent", ByteBuffer.allocate(8).putLong(System.currentTimeMillis()).array());
						// The output goes to any partition: the input partition travels in a header.
						record.headers().add("partition", ByteBuffer.allocate(4).putInt(partition).array());
						producer.send(record);
					}
					Thread.sleep(5);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		private void observe() {
			Properties props = new Properties();
			props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers);
			props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
			try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
					new ByteArrayDeserializer())) {
				List<TopicPartition> partitions = new ArrayList<>();
				for (int partition = 0; partition < PARTITIONS; partition++) {
					partitions.add(new TopicPartition(this.output, partition));
				}
				consumer.assign(partitions);
				consumer.seekToBeginning(partitions);
				while (this.running.get()) {
					for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(20))) {
						Header sent = record.headers().lastHeader("sent");
						Header partition = record.headers().lastHeader("partition");
						this.arrivals.add(ByteBuffer.wrap(partition.value()).getInt(), ByteBuffer.wrap(sent.value()).getLong(),
								System.currentTimeMillis());
					}
				}
			}
		}

	}

	/**
	 * One instance's JVM.
	 */
	private static final class Instance {

		private final Process process;

		private final Path log;

		private final long startedMillis;

		private Instance(Process process, Path log, long startedMillis) {
			this.process = process;
			this.log = log;
			this.startedMillis = startedMillis;
		}

		static Instance start(Run run, String name) throws IOException, InterruptedException {
			List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
					"-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
					RebalanceInstanceMain.class.getName(), run.bootstrapServers, run.input, run.output,
					 run.group(), "rb-tx-" + run.id + "-" + name, run.protocol, run.membership);
			Path log = Files.createTempFile("lockstep-rebalance-" + name + "-", ".log");
			Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
			long deadline = System.currentTimeMillis() + 60_000;
			while (System.currentTimeMillis() < deadline) {
				Matcher started = STARTED.matcher(Files.readString(log));
				if (started.find()) {
					return new Instance(process, log, Long.parseLong(started.group(1)));
				}
				if (!process.isAlive()) {
					break;
				}
				Thread.sleep(10);
			}
			process.destroyForcibly().waitFor();
			throw new IllegalStateException("Instance " + name + " did not start:\n" + Files.readString(log));
		}

		long startedMillis() {
			return this.startedMillis;
		}

		/** SIGKILL, as a crash; returns when it was sent. */
		long kill() throws InterruptedException, IOException {
			long at = System.currentTimeMillis();
			this.process.destroyForcibly().waitFor();
			Files.deleteIfExists(this.log);
			return at;
		}

		/** SIGTERM, a graceful stop, waited for; returns when it was sent. */
		long stop() throws InterruptedException, IOException {
			long at = System.currentTimeMillis();
			this.process.destroy();
			if (!this.process.waitFor(60, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor();
				throw new IllegalStateException("Instance did not stop:\n" + Files.readString(this.log));
			}
			Files.deleteIfExists(this.log);
			return at;
		}

	}

}
