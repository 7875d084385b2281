package dev.lockstep.autoconfigure.dev;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.lockstep.autoconfigure.LockstepInstanceAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepPropertiesAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepRegistryAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepTopicsAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepWorkersAutoConfiguration;
import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class DevKafkaBrokerTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(LockstepInstanceAutoConfiguration.class, LockstepDevBrokerAutoConfiguration.class, KafkaAutoConfiguration.class,
					LockstepRegistryAutoConfiguration.class, LockstepTopicsAutoConfiguration.class,
					LockstepWorkersAutoConfiguration.class));

	@Test
	void startsWhenEnabledAndNoBrokerIsConfiguredAndPublishesItsConnectionDetails() {
		this.runner
			.withPropertyValues("lockstep.dev.embedded-broker.enabled=true",
					"lockstep.dev.embedded-broker.temporary=true", "lockstep.topics.dev-topic.partitions=2")
			.run((context) -> {
				DevKafkaBroker broker = context.getBean(DevKafkaBroker.class);
				assertThat(context.getBean(KafkaConnectionDetails.class).getBootstrapServers())
					.containsExactly(broker.bootstrapServers());
				try (Admin admin = admin(broker.bootstrapServers())) {
					assertThat(admin.listTopics().names().get()).contains("dev-topic");
				}
			});
	}

	@Test
	void backsOffWhenABrokerIsConfiguredOrItIsNotEnabled() {
		this.runner
			.withPropertyValues("lockstep.dev.embedded-broker.enabled=true", "spring.kafka.bootstrap-servers=127.0.0.1:1",
					"spring.kafka.admin.auto-create=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(DevKafkaBroker.class));
		this.runner.withPropertyValues("spring.kafka.admin.auto-create=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(DevKafkaBroker.class));
	}

	@Test
	void aWorkerDeclarationMistakeIsRefusedBeforeTheBrokerStarts(@TempDir Path parent) {
		Path dataDir = parent.resolve("kafka");
		long started = System.nanoTime();
		this.runner.withConfiguration(AutoConfigurations.of(LockstepPropertiesAutoConfiguration.class))
			.withPropertyValues("lockstep.dev.embedded-broker.enabled=true",
					"lockstep.dev.embedded-broker.data-dir=" + dataDir, "lockstep.workers.orders.source-topics=orders")
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(LockstepConfigurationException.class)
				.hasMessageContaining("lockstep.workers.orders.destination"));
		// The broker would have created its data directory; generous bound, a loaded machine is slow.
		assertThat(dataDir).doesNotExist();
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
	}

	@Test
	void backsOffWhenConnectionDetailsComeFromElsewhere() {
		this.runner.withPropertyValues("lockstep.dev.embedded-broker.enabled=true", "spring.kafka.admin.auto-create=false")
			.withBean(KafkaConnectionDetails.class, () -> () -> List.of("127.0.0.1:1"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(DevKafkaBroker.class));
	}

	@Test
	void keepsItsDataBetweenRunsAndRefusesASecondUserOfItsDirectory(@TempDir Path dir) throws Exception {
		try (DevKafkaBroker first = DevKafkaBroker.start(dir, false)) {
			try (Admin admin = admin(first.bootstrapServers())) {
				admin.createTopics(List.of(new NewTopic("kept", Optional.of(1), Optional.empty()))).all().get();
			}
			assertThatIllegalStateException().isThrownBy(() -> DevKafkaBroker.start(dir, false))
				.withMessageContaining("is in use by another process")
				.withMessageContaining("lockstep.dev.embedded-broker.data-dir");
		}
		try (DevKafkaBroker second = DevKafkaBroker.start(dir, false); Admin admin = admin(second.bootstrapServers())) {
			assertThat(admin.listTopics().names().get()).contains("kept");
		}
		assertThat(dir).isDirectory();
	}

	@Test
	void temporaryDataIsDeletedOnClose(@TempDir Path parent) {
		Path dir = parent.resolve("temporary");
		DevKafkaBroker broker = DevKafkaBroker.start(dir, true);
		broker.close();
		assertThat(dir).doesNotExist();
	}

	private static Admin admin(String bootstrapServers) {
		return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
	}

}
