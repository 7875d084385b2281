package dev.lockstep.sample;

import java.util.HashMap;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;

/**
 * Registry mode: when {@code lockstep.registry.url} is set, or
 * {@code sample.registry=embedded} asks for the development registry (its schemas kept in
 * {@code .lockstep/registry} beside the development broker's data), orders are written in
 * the Confluent wire format under the subjects {@code cookbook-orders-value} and
 * {@code cookbook-normalized-value} (registered on first use) instead of raw Avro.
 * Command-line arguments still win.
 */
class RegistryModeEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		String url = environment.getProperty("lockstep.registry.url");
		boolean embedded = "embedded".equals(environment.getProperty("sample.registry"));
		if ((url == null || url.isBlank()) && !embedded) {
			return;
		}
		Map<String, Object> properties = new HashMap<>(Map.of("lockstep.producers.orders.value.codec", "registry-avro",
				"lockstep.workers.normalizer.value.codec", "registry-avro", "lockstep.registry.auto-register", "true"));
		if (embedded) {
			properties.put("lockstep.dev.embedded-registry.enabled", "true");
		}
		MapPropertySource registryMode = new MapPropertySource("sampleRegistryMode", properties);
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
