package dev.lockstep.sample;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;

/**
 * Registry mode: when {@code lockstep.registry.url} is set, orders are written in the
 * Confluent wire format under the subjects {@code cookbook-orders-value} and
 * {@code cookbook-normalized-value} (registered on first use) instead of raw Avro.
 * Command-line arguments still win.
 */
class RegistryModeEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		String url = environment.getProperty("lockstep.registry.url");
		if (url == null || url.isBlank()) {
			return;
		}
		MapPropertySource registryMode = new MapPropertySource("sampleRegistryMode",
				Map.of("lockstep.producers.orders.value.codec", "registry-avro",
						"lockstep.workers.normalizer.value.codec", "registry-avro", "lockstep.registry.auto-register",
						"true"));
		MutablePropertySources sources = environment.getPropertySources();
		if (sources.contains("commandLineArgs")) {
			sources.addAfter("commandLineArgs", registryMode);
		}
		else {
			sources.addFirst(registryMode);
		}
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
