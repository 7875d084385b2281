package dev.lockstep.test.kafka;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit extension giving every test class of a JVM that asks for it one broker: an
 * {@link InJvmKafkaBroker} with the test defaults, started when a class first takes a
 * {@link KafkaBroker} parameter (in a {@code @BeforeAll} method, a constructor or a test)
 * and closed when the JVM's tests end. Classes sharing it keep their topic and group names
 * unique; a test that stops, restarts or reconfigures its broker starts its own.
 *
 * <pre class="code">
 * &#064;ExtendWith(SharedKafkaBroker.class)
 * class OrderWorkerTests {
 *
 *     private static TestKafka kafka;
 *
 *     &#064;BeforeAll
 *     static void connect(KafkaBroker broker) {
 *         kafka = new TestKafka(broker);
 *     }
 * }
 * </pre>
 */
public final class SharedKafkaBroker implements ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(SharedKafkaBroker.class);

	@Override
	public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
		return parameter.getParameter().getType() == KafkaBroker.class;
	}

	@Override
	public KafkaBroker resolveParameter(ParameterContext parameter, ExtensionContext context) {
		// The root context's store lives as long as the JVM's test run; it closes what it holds.
		return context.getRoot()
			.getStore(NAMESPACE)
			.computeIfAbsent(KafkaBroker.class, (key) -> InJvmKafkaBroker.start(), KafkaBroker.class);
	}

}
