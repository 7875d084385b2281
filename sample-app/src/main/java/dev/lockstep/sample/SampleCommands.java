package dev.lockstep.sample;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import dev.lockstep.autoconfigure.LockstepCodecs;
import dev.lockstep.autoconfigure.LockstepProperties;
import dev.lockstep.worker.LockstepWorkers;
import dev.lockstep.worker.Redrive;
import dev.lockstep.worker.RedriveResult;
import dev.lockstep.worker.SlotState;
import dev.lockstep.worker.Worker;
import dev.lockstep.worker.WorkerState;
import dev.lockstep.worker.WorkerStatus;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

/**
 * The cookbook's three steps: seed the input, transform exactly three records in
 * transactions, verify the output with a read_committed reader; and the operator's
 * redrive of quarantined orders.
 */
@Component
class SampleCommands {

	static final String SOURCE = "cookbook-orders";

	static final String DESTINATION = "cookbook-normalized";

	private final KafkaTemplate<String, Order> orders;

	private final LockstepWorkers workers;

	private final ConsumerFactory<?, ?> consumerFactory;

	private final LockstepCodecs codecs;

	private final LockstepProperties properties;

	private final Duration deadline;

	private final int maxRedrives;

	SampleCommands(@Qualifier("orders") KafkaTemplate<String, Order> orders, LockstepWorkers workers,
			ConsumerFactory<?, ?> consumerFactory, LockstepCodecs codecs, LockstepProperties properties,
			@Value("${sample.verify-deadline:60s}") Duration deadline,
			@Value("${sample.max-redrives:" + Redrive.DEFAULT_MAX_REDRIVES + "}") int maxRedrives) {
		this.orders = orders;
		this.workers = workers;
		this.consumerFactory = consumerFactory;
		this.codecs = codecs;
		this.properties = properties;
		this.deadline = deadline;
		this.maxRedrives = maxRedrives;
	}

	/**
	 * Write two orders and a tombstone in one transaction, checking every delivery.
	 */
	void seed() {
		List<CompletableFuture<SendResult<String, Order>>> deliveries = this.orders.executeInTransaction((template) -> {
			List<CompletableFuture<SendResult<String, Order>>> sends = new ArrayList<>();
			sends.add(template.send(SOURCE, "order-1", new Order(1L, "paid", 12500L)));
			sends.add(template.send(SOURCE, "order-2", new Order(2L, "Refunded", 7800L)));
			sends.add(template.send(SOURCE, "order-3", null));
			return sends;
		});
		deliveries.forEach(CompletableFuture::join);
		System.out.println("seeded " + deliveries.size());
	}

	/**
	 * Run the worker until it has committed three inputs; fail when it blocks on an
	 * invalid order or sees no input for 60 seconds.
	 */
	void transform() {
		Worker worker = this.workers.worker("normalizer");
		worker.start();
		while (!worker.awaitTermination(Duration.ofMillis(200))) {
			WorkerState state = worker.state();
			if (state.status() == WorkerStatus.BLOCKED) {
				SlotState.BlockedRecord blocked = state.slots().get(0).blockedAt();
				worker.stop();
				throw new IllegalStateException("blocked at " + blocked.topic() + "-" + blocked.partition() + "@"
						+ blocked.offset() + ": " + blocked.reason() + "; nothing was committed past it");
			}
		}
		WorkerState state = worker.state();
		if (state.status() != WorkerStatus.STOPPED) {
			List<String> errors = state.slots().get(0).recentErrors();
			// Recent errors start with their time; the reason is what follows.
			String last = errors.isEmpty() ? "no detail" : errors.get(errors.size() - 1);
			throw new IllegalStateException(last.substring(last.indexOf(' ') + 1));
		}
		System.out.println("committed " + state.committedRecords());
	}

	/**
	 * Read the output from the beginning with read_committed and no group, and check it
	 * holds exactly the two normalized orders and the tombstone; fail after the deadline
	 * ({@code sample.verify-deadline}, 60 s).
	 */
	@SuppressWarnings("unchecked")
	void verify() {
		Deserializer<Order> values = (Deserializer<Order>) this.codecs.deserializer(
				this.properties.getWorkers().get("normalizer").getValue(), false, "lockstep.workers.normalizer.value");
		Map<Long, String> statuses = new HashMap<>();
		int tombstones = 0;
		List<ConsumerRecord<byte[], byte[]>> records = readOutput();
		if (records.size() != 3) {
			throw new IllegalStateException("expected 3 output records, found " + records.size());
		}
		for (ConsumerRecord<byte[], byte[]> record : records) {
			String key = new String(record.key(), StandardCharsets.UTF_8);
			Order order = values.deserialize(DESTINATION, record.headers(), record.value());
			if (order == null) {
				check(key.equals("order-3"), "tombstone under key " + key + ", expected order-3");
				tombstones++;
				continue;
			}
			check(key.equals("order-" + order.getId()), "order " + order.getId() + " under key " + key);
			check(statuses.put(order.getId(), order.getStatus()) == null, "order " + order.getId() + " twice");
		}
		check(statuses.equals(Map.of(1L, "PAID", 2L, "REFUNDED")) && tombstones == 1,
				"expected orders {1=PAID, 2=REFUNDED} and 1 tombstone, found " + statuses + " and " + tombstones);
		System.out.println("verified 2 orders and 1 tombstone");
	}

	/**
	 * Send the orders quarantined since the last redrive back to the input, each once:
	 * the worker processes them again when it next runs. Needs a quarantine topic
	 * ({@code --lockstep.workers.normalizer.invalid-input.quarantine-topic}).
	 */
	void redrive() {
		Worker worker = this.workers.worker("normalizer");
		String quarantine = worker.settings().invalidInput().quarantineTopic();
		if (quarantine == null || quarantine.isBlank()) {
			throw new IllegalStateException("the normalizer has no quarantine topic: run it with "
					+ "--lockstep.workers.normalizer.invalid-input.policy=quarantine and "
					+ "--lockstep.workers.normalizer.invalid-input.quarantine-topic=<topic>");
		}
		RedriveResult result = worker.redrive(new Redrive(null, Set.of(), null, null, null, this.maxRedrives,
				"the redrive command"));
		System.out.println("redriven " + result.redriven() + ", kept by the loop guard " + result.keptByLoopGuard()
				+ ", not selected " + result.notSelected() + ", unroutable " + result.unroutable());
	}

	private List<ConsumerRecord<byte[], byte[]>> readOutput() {
		Map<String, Object> config = new HashMap<>(this.consumerFactory.getConfigurationProperties());
		config.remove(ConsumerConfig.GROUP_ID_CONFIG);
		config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
				new ByteArrayDeserializer())) {
			TopicPartition partition = new TopicPartition(DESTINATION, 0);
			consumer.assign(List.of(partition));
			consumer.seekToBeginning(List.of(partition));
			long deadline = System.nanoTime() + this.deadline.toNanos();
			while (records.size() < 3) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("input deadline exceeded: " + records.size()
							+ " output records after " + this.deadline + "; check topics, offsets and broker");
				}
				consumer.poll(Duration.ofMillis(500)).forEach(records::add);
			}
			// Anything beyond the expected three is a duplicate or a leftover: read it too.
			consumer.poll(Duration.ofMillis(500)).forEach(records::add);
		}
		return records;
	}

	private static void check(boolean condition, String problem) {
		if (!condition) {
			throw new IllegalStateException(problem);
		}
	}

}
