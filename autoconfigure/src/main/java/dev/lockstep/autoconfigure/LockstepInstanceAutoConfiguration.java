package dev.lockstep.autoconfigure;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.lockstep.autoconfigure.validation.LockstepConfigurationException;
import dev.lockstep.worker.InstanceIdentity;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * This instance's {@link InstanceIdentity}, resolved once: {@code lockstep.instance-id}
 * (or {@code LOCKSTEP_INSTANCE_ID}), else a StatefulSet pod's name, else generated. The
 * workers, the named producers and the listener containers add it to their transactional
 * ids, so that replicas of one configuration never share one.
 */
@AutoConfiguration
@ConditionalOnClass(InstanceIdentity.class)
@EnableConfigurationProperties(LockstepProperties.class)
public final class LockstepInstanceAutoConfiguration {

	// What a platform tells a process about itself; read through Spring's environment.
	private static final List<String> PLATFORM_VARIABLES = List.of("HOSTNAME", "KUBERNETES_SERVICE_HOST");

	@Bean
	@ConditionalOnMissingBean
	InstanceIdentity lockstepInstanceIdentity(LockstepProperties properties, Environment environment) {
		String configured = properties.getInstanceId();
		if (configured == null || configured.isBlank()) {
			Map<String, String> platform = new HashMap<>();
			PLATFORM_VARIABLES.forEach((name) -> {
				String value = environment.getProperty(name);
				if (value != null) {
					platform.put(name, value);
				}
			});
			return InstanceIdentity.resolve(platform);
		}
		try {
			return InstanceIdentity.configured(configured.trim(), "lockstep.instance-id");
		}
		catch (IllegalArgumentException ex) {
			throw new LockstepConfigurationException("lockstep.instance-id", null,
					"'" + configured + "' is part of every slot's transactional id and static member id, which "
							+ "Kafka accepts only of letters, digits, '.', '_' and '-'",
					"Set lockstep.instance-id of those characters.");
		}
	}

}
