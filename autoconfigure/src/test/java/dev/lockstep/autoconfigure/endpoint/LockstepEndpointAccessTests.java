package dev.lockstep.autoconfigure.endpoint;

import java.util.List;

import dev.lockstep.autoconfigure.LockstepInstanceAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepPropertiesAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepRegistryAutoConfiguration;
import dev.lockstep.autoconfigure.LockstepWorkersAutoConfiguration;
import dev.lockstep.worker.ValueTransformer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.OperationFilter;
import org.springframework.boot.actuate.endpoint.invoke.ParameterValueMapper;
import org.springframework.boot.actuate.endpoint.web.EndpointMediaTypes;
import org.springframework.boot.actuate.endpoint.web.ExposableWebEndpoint;
import org.springframework.boot.actuate.endpoint.web.WebEndpointHttpMethod;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpointDiscoverer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code lockstep} endpoint's write operations (pause, resume, skip) are off unless
 * {@code management.endpoint.lockstep.access=unrestricted}: actuator's own access rules,
 * applied by its operation filter, leave only the read operations by default.
 */
class LockstepEndpointAccessTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockstepInstanceAutoConfiguration.class, EndpointAutoConfiguration.class, KafkaAutoConfiguration.class,
				LockstepPropertiesAutoConfiguration.class, LockstepRegistryAutoConfiguration.class,
				LockstepWorkersAutoConfiguration.class, LockstepEndpointAutoConfiguration.class))
		.withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:1", "management.endpoints.web.exposure.include=*",
				"lockstep.workers.normalizer.source-topics=in", "lockstep.workers.normalizer.destination=out",
				"lockstep.workers.normalizer.auto-startup=false", "lockstep.workers.normalizer.value.codec=string")
		.withBean("normalizer", ValueTransformer.class, () -> (ValueTransformer<String, String>) (value) -> value)
		// As SpringApplication does: relaxed enum values such as "unrestricted" convert.
		.withInitializer((context) -> context.getEnvironment().setConversionService(new ApplicationConversionService()));

	@Test
	void onlyReadOperationsByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(LockstepEndpoint.class);
			assertThat(httpMethods(context)).isNotEmpty().containsOnly(WebEndpointHttpMethod.GET);
		});
	}

	@Test
	void readOnlyAccessKeepsWriteOperationsOff() {
		this.runner.withPropertyValues("management.endpoint.lockstep.access=read-only")
			.run((context) -> assertThat(httpMethods(context)).containsOnly(WebEndpointHttpMethod.GET));
		this.runner.withPropertyValues("management.endpoints.access.default=unrestricted",
				"management.endpoints.access.max-permitted=read-only")
			.run((context) -> assertThat(httpMethods(context)).containsOnly(WebEndpointHttpMethod.GET));
	}

	@Test
	void writeOperationsWhenAccessIsUnrestricted() {
		this.runner.withPropertyValues("management.endpoint.lockstep.access=unrestricted")
			.run((context) -> assertThat(httpMethods(context)).contains(WebEndpointHttpMethod.GET,
					WebEndpointHttpMethod.POST));
	}

	private static List<WebEndpointHttpMethod> httpMethods(AssertableApplicationContext context) {
		WebEndpointDiscoverer discoverer = new WebEndpointDiscoverer(context,
				context.getBean(ParameterValueMapper.class), EndpointMediaTypes.DEFAULT, List.of(), List.of(),
				List.of(), List.of(),
				List.of(OperationFilter.<WebOperation>byAccess(context.getBean(EndpointAccessResolver.class))));
		ExposableWebEndpoint endpoint = discoverer.getEndpoints()
			.stream()
			.filter((candidate) -> candidate.getEndpointId().toString().equals("lockstep"))
			.findFirst()
			.orElseThrow();
		return endpoint.getOperations()
			.stream()
			.map((operation) -> operation.getRequestPredicate().getHttpMethod())
			.toList();
	}

}
