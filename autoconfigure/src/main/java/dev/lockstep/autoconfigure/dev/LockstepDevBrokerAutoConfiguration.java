package dev.lockstep.autoconfigure.dev;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.lockstep.autoconfigure.LockstepProperties;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Starts a development broker inside the JVM when
 * {@code lockstep.dev.embedded-broker.enabled=true}, no broker is configured, and
 * Kafka's server jars are on the class path, and publishes it through
 * {@link KafkaConnectionDetails} so that everything Spring Boot and Lockstep build uses it.
 * Connection details from elsewhere (a test's broker, a service connection) win.
 */
@AutoConfiguration(before = KafkaAutoConfiguration.class)
@ConditionalOnClass(name = "kafka.server.KafkaRaftServer")
@ConditionalOnProperty(prefix = "lockstep.dev.embedded-broker", name = "enabled", havingValue = "true")
@Conditional(OnNoBootstrapServersCondition.class)
@ConditionalOnMissingBean(KafkaConnectionDetails.class)
@EnableConfigurationProperties(LockstepProperties.class)
public final class LockstepDevBrokerAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	DevKafkaBroker lockstepDevKafkaBroker(LockstepProperties properties) {
		LockstepProperties.EmbeddedBroker broker = properties.getDev().getEmbeddedBroker();
		if (broker.isTemporary()) {
			try {
				return DevKafkaBroker.start(Files.createTempDirectory("lockstep-dev-kafka-"), true);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return DevKafkaBroker.start(Path.of(broker.getDataDir()), false);
	}

	@Bean
	KafkaConnectionDetails lockstepDevKafkaConnectionDetails(DevKafkaBroker broker) {
		return () -> List.of(broker.bootstrapServers());
	}

}
