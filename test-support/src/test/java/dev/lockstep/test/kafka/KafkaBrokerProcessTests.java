package dev.lockstep.test.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KafkaBrokerProcessTests {

	private static KafkaBrokerProcess broker;

	@BeforeAll
	static void startBroker() {
		broker = KafkaBrokerProcess.start();
	}

	@AfterAll
	static void stopBroker() {
		broker.close();
		assertThat(broker.isAlive()).isFalse();
	}

	@Test
	void transactionalWorkIsVisibleToReadCommittedAndAbortedWorkIsNot() {
		new TransactionalRoundTrip(broker).assertCommittedVisibleAndAbortedInvisible();
	}

	@Test
	void committedDataSurvivesSigkillAndRestartWhileAnOpenTransactionDoesNot() throws Exception {
		TransactionalRoundTrip roundTrip = new TransactionalRoundTrip(broker);
		roundTrip.assertCommittedVisibleAndAbortedInvisible();
		long pidBefore = broker.pid();
		try (KafkaProducer<String, String> producer = roundTrip.transactionalProducer("open-" + UUID.randomUUID())) {
			producer.initTransactions();
			producer.beginTransaction();
			producer.send(new ProducerRecord<>(roundTrip.output(), "k", "never-committed"));
			producer.flush();
			broker.kill();
			assertThat(ProcessHandle.of(pidBefore)).isEmpty();
			producer.close(Duration.ZERO);
		}
		broker.restart();
		assertThat(broker.pid()).isNotEqualTo(pidBefore);
		// The restarted broker aborts the orphaned transaction when it times out; read_committed
		// output is exactly the committed records, and the group's offset is intact.
		assertThat(roundTrip.readAll(roundTrip.output(), "read_committed", 4)).containsExactly("A", "B", "C",
				"after-abort");
		assertThat(roundTrip.committedOffset()).isEqualTo(3);
	}

	@Test
	void pausedBrokerDoesNotAnswerUntilResumed() throws Exception {
		broker.pause();
		try {
			assertThatThrownBy(() -> describeCluster(Duration.ofSeconds(2))).isInstanceOfAny(TimeoutException.class,
					ExecutionException.class);
		}
		finally {
			broker.resume();
		}
		assertThat(describeCluster(Duration.ofSeconds(30))).isEqualTo(1);
	}

	@Test
	void restartIsRefusedWhileRunning() {
		assertThatThrownBy(broker::restart).isInstanceOf(IllegalStateException.class).hasMessageContaining("running");
	}

	private static int describeCluster(Duration timeout) throws Exception {
		Properties props = new Properties();
		props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
		props.putAll(Map.of(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis(),
				AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis()));
		try (Admin admin = Admin.create(props)) {
			return admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()))
				.nodes()
				.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS)
				.size();
		}
	}

}
