package dev.lockstep.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.lockstep.test.kafka.SecuredKafkaBroker;
import dev.lockstep.test.kafka.WorkerAcls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kill storm of scenario 1 against a secured cluster, as production runs it: the
 * sample jar as shipped, over {@code SASL_SSL} with SCRAM-SHA-512, with
 * {@code lockstep.security.require-encryption=true} and only the ACLs docs/security.md
 * lists for a worker (its topics exist, so it creates none). The test seeds and checks
 * over the broker's administration listener. No worker log holds the SCRAM password or the
 * trust store's.
 */
class SecuredClusterKillStormTests {

	private static final int RECORDS = Integer.getInteger("lockstep.e2e.secured.records", 20_000);

	private static final int KILLS = Integer.getInteger("lockstep.e2e.secured.kills", 5);

	private static final String USER = "normalizer";

	private static final String PASSWORD = "e2e-scram-secret-7319";

	private static SecuredKafkaBroker broker;

	@BeforeAll
	static void startBroker() {
		broker = SecuredKafkaBroker.start();
		broker.addScramUser(USER, PASSWORD);
		broker.grant(new WorkerAcls(USER, List.of(OrderPipeline.INPUT), OrderPipeline.GROUP,
				List.of(OrderPipeline.OUTPUT), "cookbook-normalizer")
			.bindings());
	}

	@AfterAll
	static void stopBroker() {
		if (broker != null) {
			broker.close();
		}
	}

	@Test
	void outputIsExactAfterRepeatedSigkillsOverSaslSslWithLeastPrivilege(@TempDir Path workDir) throws Exception {
		long started = System.nanoTime();
		OrderPipeline pipeline = new OrderPipeline(broker.bootstrapServers(), RECORDS);
		pipeline.createTopics(4, (short) 1);
		pipeline.seed();
		List<String> workerArgs = new ArrayList<>(List.of("--lockstep.security.require-encryption=true"));
		SecuredKafkaBroker.springKafkaProperties(broker.scramClient(USER, PASSWORD))
			.forEach((key, value) -> workerArgs.add("--" + key + "=" + value));
		FaultScenarios.killStorm(pipeline, workDir, KILLS, workerArgs.toArray(String[]::new));
		pipeline.assertExactOutput("secured-kill-storm", KILLS, KILLS + 1, started);
		assertThat(workerLogs(workDir)).hasSize(KILLS + 1)
			.allSatisfy((log) -> assertThat(Files.readString(log)).as(log.toString())
				.doesNotContain(PASSWORD, broker.certificates().password()));
	}

	private static List<Path> workerLogs(Path workDir) throws IOException {
		try (Stream<Path> files = Files.list(workDir)) {
			return files.filter((file) -> file.getFileName().toString().startsWith("sample-app-")).toList();
		}
	}

}
