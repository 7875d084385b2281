package dev.lockstep.autoconfigure.endpoint;

import java.util.Map;

import dev.lockstep.autoconfigure.LockstepInstanceAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepRegistryAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepWorkersAutoConfiguration;
import dev.lockstep.worker.ValueTransformer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class LockstepInfoContributorTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockstepInstanceAutoConfiguration.class, KafkaAutoConfiguration.class, LockstepRegistryAutoConfiguration.class,
				LockstepWorkersAutoConfiguration.class, LockstepEndpointAutoConfiguration.class))
		.withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:1",
				"lockstep.workers.normalizer.source-topics=in", "lockstep.workers.normalizer.destination=out",
				"lockstep.workers.normalizer.auto-startup=false", "lockstep.workers.normalizer.value.codec=string")
		.withBean("normalizer", ValueTransformer.class, () -> (ValueTransformer<String, String>) (value) -> value);

	@Test
	void theInfoEndpointShowsTheInstancesIdentity() {
		this.runner.withPropertyValues("lockstep.instance-id=eu-1").run((context) -> {
			Info.Builder info = new Info.Builder();
			context.getBean(LockstepInfoContributor.class).contribute(info);
			assertThat(info.build().getDetails()).containsEntry("lockstep", Map.of("instance",
					Map.of("id", "eu-1", "kind", "CONFIGURED", "origin", "lockstep.instance-id")));
		});
		this.runner.withPropertyValues("management.info.lockstep.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockstepInfoContributor.class));
	}

}
