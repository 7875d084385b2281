package dev.lockstep.benchmarks.rebalance;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.lockstep.test.kafka.KafkaBrokerProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
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
 * and the consumer (KIP-848) group protocol, with dynamic members, static members that
 * leave the group on a graceful stop (Lockstep's default) and static members that keep
 * their place ({@code leave-group-on-stop: false}).
 * <p>
 * One Kafka broker process with Kafka's default group timeouts (a 45 s session under both
 * protocols), input fed at a steady rate into 8 partitions, each record carrying its send
 * time; one-slot worker instances in JVMs of their own ({@link RebalanceInstanceMain}).
 * Per configuration, one sequence of events, each after output has flowed steadily: a
 * second instance joins; it is SIGKILLed and started again at once (a crash restart);
 * it is stopped (SIGTERM) and started again (a rolling restart); it is stopped for good
 * (leaves). An event's pause is the time from the event (the joining instance's subscribe,
 * the signal) until every partition has output again for input sent after the event:
 * with nothing happening, that is the pipeline's latency (a transaction interval, about
 * 0.1 to 0.3 s). Prints a table and {@code REBALANCE} lines.
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
			.of(System.getProperty("bench.memberships", "dynamic,static,static-remain").split(","));
		Map<String, List<Map<String, Double>>> results = new LinkedHashMap<>();
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start()) {
			for (int round = 1; round <= ROUNDS; round++) {
				for (String protocol : protocols) {
					for (String membership : memberships) {
						String configuration = protocol + " " + membership;
						Map<String, Double> pauses = new Run(broker.bootstrapServers(), protocol, membership).run();
						System.out.println("round " + round + " " + configuration + " " + pauses);
						results.computeIfAbsent(configuration, (key) -> new ArrayList<>()).add(pauses);
					}
				}
			}
		}
		print(results);
	}

	private static void print(Map<String, List<Map<String, Double>>> results) {
		System.out.println();
		System.out.println("| protocol, membership | " + String.join(" | ", EVENTS) + " |");
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
			Map<String, Double> pauses = new LinkedHashMap<>();
			Instance first = Instance.start(this, "a");
			Instance second = null;
			try {
				settle(first.startedMillis());
				second = Instance.start(this, "b");
				pauses.put("join", pause(second.startedMillis()));
				settle(System.currentTimeMillis());
				long killed = second.kill();
				second = Instance.start(this, "b");
				pauses.put("crash-restart", pause(killed));
				settle(System.currentTimeMillis());
				long stopped = second.stop();
				second = Instance.start(this, "b");
				pauses.put("restart", pause(stopped));
				settle(System.currentTimeMillis());
				pauses.put("leave", pause(second.stop()));
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
			return pauses;
		}

		/** Wait until output flows steadily on every partition: the pipeline's latency again. */
		private void settle(long sinceMillis) throws InterruptedException {
			pause(sinceMillis);
			Thread.sleep(2_000);
		}

		/** Seconds from the event until every partition has output for input sent after it. */
		private double pause(long eventMillis) throws InterruptedException {
			long deadline = System.currentTimeMillis() + EVENT_LIMIT.toMillis();
			while (System.currentTimeMillis() < deadline) {
				long resumed = this.arrivals.allResumedAfter(eventMillis, PARTITIONS);
				if (resumed > 0) {
					return (resumed - eventMillis) / 1000.0;
				}
				Thread.sleep(100);
			}
			throw new IllegalStateException(this.protocol + " " + this.membership + ": output did not resume on every"
					+ " partition within " + EVENT_LIMIT);
		}

		private void feed() {
			Properties props = new Properties();
			props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers);
			props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
			try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
					new ByteArraySerializer())) {
				long sent = 0;
				long start = System.nanoTime();
				while (this.running.get()) {
					long due = (System.nanoTime() - start) * RATE / 1_000_000_000L;
					for (; sent < due; sent++) {
						ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(this.input,
								(int) (sent % PARTITIONS), null, new byte[16]);
						record.headers().add("sent", ByteBuffer.allocate(8).putLong(System.currentTimeMillis()).array());
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
						this.arrivals.add(record.partition(), ByteBuffer.wrap(sent.value()).getLong(),
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
					"rb-group-" + run.id, "rb-tx-" + run.id + "-" + name, run.protocol, run.membership);
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
		long kill() throws InterruptedException {
			long at = System.currentTimeMillis();
			this.process.destroyForcibly().waitFor();
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
			return at;
		}

	}

	/**
	 * Every output record the observer saw: its partition, when its input was sent, and
	 * when it became visible to a read_committed reader.
	 */
	private static final class Arrivals {

		private long[] partition = new long[1 << 16];

		private long[] sent = new long[1 << 16];

		private long[] seen = new long[1 << 16];

		private int size;

		synchronized void add(int partition, long sentMillis, long seenMillis) {
			if (this.size == this.seen.length) {
				this.partition = Arrays.copyOf(this.partition, this.size * 2);
				this.sent = Arrays.copyOf(this.sent, this.size * 2);
				this.seen = Arrays.copyOf(this.seen, this.size * 2);
			}
			this.partition[this.size] = partition;
			this.sent[this.size] = sentMillis;
			this.seen[this.size] = seenMillis;
			this.size++;
		}

		/**
		 * The moment every partition had shown output for input sent at or after the event,
		 * or 0 while some has not.
		 */
		synchronized long allResumedAfter(long eventMillis, int partitions) {
			long[] resumed = new long[partitions];
			int count = 0;
			// Seen times only grow: output for input sent after the event was seen after it.
			int from = 0;
			int to = this.size;
			while (from < to) {
				int middle = (from + to) >>> 1;
				if (this.seen[middle] < eventMillis) {
					from = middle + 1;
				}
				else {
					to = middle;
				}
			}
			for (int i = from; i < this.size && count < partitions; i++) {
				int p = (int) this.partition[i];
				if (this.sent[i] >= eventMillis && resumed[p] == 0) {
					resumed[p] = this.seen[i];
					count++;
				}
			}
			if (count < partitions) {
				return 0;
			}
			long last = 0;
			for (long at : resumed) {
				last = Math.max(last, at);
			}
			return last;
		}

	}

}
