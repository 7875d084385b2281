package dev.lockstep.worker;

import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A JVM of its own that redrives a test worker's quarantine topic, for a test to kill
 * with SIGKILL: arguments are the bootstrap servers, the worker's group, input and
 * quarantine topic. Small polls make many transactions, so that the kill lands between
 * some of them.
 */
final class RedriveProcess {

	private RedriveProcess() {
	}

	public static void main(String[] args) {
		WorkerSettings settings = settings(args[0], args[1], args[2], args[3]);
		RecordProcessor<String, String> unused = (record, output) -> {
		};
		RedriveResult result = new Worker(settings, unused).redrive(Redrive.sinceTheLast());
		System.out.println("Redrive done: " + result);
	}

	/**
	 * The settings of the test's worker, as far as a redrive reads them.
	 */
	static WorkerSettings settings(String bootstrapServers, String group, String input, String quarantine) {
		Map<String, Object> clients = Map.of("bootstrap.servers", bootstrapServers);
		return WorkerSettings.builder("redrive")
			.sourceTopics(input)
			.destination(input + "-out")
			.groupId(group)
			.instance(InstanceIdentity.configured("i", "test"))
			.consumerProperties(Map.of("bootstrap.servers", bootstrapServers, ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 50))
			.producerProperties(clients)
			.codecs(new WorkerSettings.Codecs(new StringDeserializer(), new StringDeserializer(),
					new StringSerializer(), new StringSerializer(), WorkerTests.INVALID_DATA))
			.invalidInput(new WorkerSettings.InvalidInputPolicy(WorkerSettings.InvalidInputPolicy.Mode.QUARANTINE,
					quarantine, new WorkerSettings.InvalidInputPolicy.QuarantineGuard(100, 1.0)))
			.build();
	}

}
