package dev.lockstep.autoconfigure;

import java.util.List;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@code lockstep.registry.url} holds at least one URL (as a single value,
 * a comma-separated list or an indexed list). Public for the development registry's
 * auto-configuration, which starts only without one.
 */
public class OnRegistryUrlCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		List<String> urls = Binder.get(context.getEnvironment())
			.bind("lockstep.registry.url", Bindable.listOf(String.class))
			.orElse(List.of());
		return urls.stream().anyMatch((url) -> !url.isBlank())
				? ConditionOutcome.match("lockstep.registry.url is set")
				: ConditionOutcome.noMatch("lockstep.registry.url is not set");
	}

}
