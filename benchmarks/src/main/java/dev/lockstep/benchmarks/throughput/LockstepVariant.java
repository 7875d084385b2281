package dev.lockstep.benchmarks.throughput;

import dev.lockstep.benchmarks.DroppingSpanExporter;
import dev.lockstep.benchmarks.Order;
import dev.lockstep.worker.AsyncValueTransformer;
import dev.lockstep.worker.ValueTransformer;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Variant E: the Lockstep worker declared in {@code bench-lockstep.yml} (and, under the
 * {@code tuned} profile, {@code bench-lockstep-tuned.yml}), with the starter's metrics and
 * health in the application as a service would have them. The business logic is a plain
 * {@link ValueTransformer} bean, or its {@link AsyncValueTransformer} form. Sampled spans
 * go through Spring Boot's batch span processor to an exporter that drops them: the
 * tracing rows pay for recording and batching spans, not for a collector's network.
 */
final class LockstepVariant implements Variant.Runner {

	@Override
	public AutoCloseable start(RunSpec spec) {
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.properties("spring.config.name=bench-lockstep")
			.run(SpringArguments.of(spec));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

		@Bean
		ValueTransformer<Order, Order> orderNormalizer() {
			return Normalization::normalize;
		}

		@Bean
		AsyncValueTransformer<Order, Order> asyncOrderNormalizer() {
			return Normalization::normalizeLater;
		}

		@Bean
		SpanExporter droppingSpanExporter() {
			return new DroppingSpanExporter();
		}

	}

}
