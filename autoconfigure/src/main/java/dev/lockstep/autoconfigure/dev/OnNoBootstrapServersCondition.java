package dev.lockstep.autoconfigure.dev;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when no broker is configured: {@code spring.kafka.bootstrap-servers} is unset.
 */
class OnNoBootstrapServersCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		String servers = context.getEnvironment().getProperty("spring.kafka.bootstrap-servers");
		return isUnset(servers)
				? ConditionOutcome.match("spring.kafka.bootstrap-servers is not set")
				: ConditionOutcome.noMatch("spring.kafka.bootstrap-servers is set to " + servers);
	}

	/**
	 * Return whether a {@code spring.kafka.bootstrap-servers} value leaves the broker
	 * unconfigured.
	 * @param servers the value, or {@code null}
	 * @return whether it is unset or blank
	 */
	static boolean isUnset(String servers) {
		return servers == null || servers.isBlank();
	}

}
