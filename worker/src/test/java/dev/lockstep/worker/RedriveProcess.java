package dev.lockstep.worker;

import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;

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
		String bootstrapServers = args[0];
		String quarantine = args[3];
		WorkerSettings settings = KafkaFixture.stringWorker(bootstrapServers, "redrive", args[2], args[2] + "-out", args[1])
			.consumerProperties(Map.of("bootstrap.servers", bootstrapServers, ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 50))
			.invalidInput(new WorkerSettings.InvalidInputPolicy(WorkerSettings.InvalidInputPolicy.Mode.QUARANTINE,
					quarantine))
			.build();
		RecordProcessor<String, String> unused = (record, output) -> {
		};
		RedriveResult result = new Worker(settings, unused).redrive(Redrive.sinceTheLast());
		System.out.println("Redrive done: " + result);
	}

}
