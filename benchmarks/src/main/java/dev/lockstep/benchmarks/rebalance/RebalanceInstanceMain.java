package dev.lockstep.benchmarks.rebalance;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.lockstep.worker.InstanceIdentity;
import dev.lockstep.worker.RecordProcessor;
import dev.lockstep.worker.Worker;
import dev.lockstep.worker.WorkerSettings;
import dev.lockstep.worker.WorkerSettings.Codecs;
import dev.lockstep.worker.WorkerSettings.Membership;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One worker instance of the rebalance harness in a JVM of its own, so the harness can
 * start, SIGTERM and SIGKILL it: a one-slot Lockstep worker with Lockstep's default
 * transaction sizing and recovery that copies each input record (key, value, headers)
 * to the output. It prints {@code STARTED <epoch millis>} once its slot is subscribed.
 */
public final class RebalanceInstanceMain {

	private RebalanceInstanceMain() {
	}

	/**
	 * Run the instance until SIGTERM (a graceful stop) or SIGKILL.
	 * @param args bootstrap servers, input, output, group, transactional id, group protocol
	 * ({@code classic} or {@code consumer}), membership ({@code generated}: a generated
	 * identity and the membership that follows, {@code dynamic}, {@code static},
	 * {@code static-remain})
	 */
	public static void main(String[] args) throws InterruptedException {
		Map<String, Object> clients = Map.of("bootstrap.servers", args[0]);
		Map<String, Object> consumer = new HashMap<>(clients);
		consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		consumer.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, args[5]);
		Map<String, Object> producer = new HashMap<>(clients);
		producer.put("max.block.ms", 4950);
		// "generated": a new identity on every start, as a Deployment's pod; the membership
		// follows from it (dynamic). The others: a stable identity, restarted in place, as
		// a StatefulSet pod's, which static members need.
		boolean generated = args[6].equals("generated");
		Membership membership = switch (args[6]) {
			case "generated" -> null;
			case "dynamic" -> Membership.DYNAMIC;
			case "static" -> Membership.STATIC;
			case "static-remain" -> new Membership(true, false);
			default -> throw new IllegalArgumentException("Unknown membership " + args[6]);
		};
		// Every other setting at its default, the YAML's too.
		WorkerSettings settings = WorkerSettings.builder("rebalance")
			.sourceTopics(args[1])
			.destination(args[2])
			.groupId(args[3])
			.transactionalId(args[4])
			.instance(generated ? InstanceIdentity.generated() : InstanceIdentity.configured("0", "the harness"))
			.consumerProperties(consumer)
			.producerProperties(producer)
			.codecs(new Codecs(new ByteArrayDeserializer(), new ByteArrayDeserializer(), new ByteArraySerializer(),
					new ByteArraySerializer()))
			.membership(membership)
			.build();
		Worker worker = new Worker(settings, RecordProcessor.of((byte[] value) -> value));
		Runtime.getRuntime().addShutdownHook(new Thread(worker::stop, "rebalance-instance-stop"));
		worker.start();
		System.out.println("STARTED " + System.currentTimeMillis());
		System.out.flush();
		while (!worker.awaitTermination(Duration.ofHours(1))) {
			// Runs until stopped.
		}
	}

}
