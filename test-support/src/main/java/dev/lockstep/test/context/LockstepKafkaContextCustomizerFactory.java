package dev.lockstep.test.context;

import java.util.List;

import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Creates the {@link LockstepKafkaContextCustomizer} of a test class annotated with
 * {@link LockstepKafkaTest}.
 */
class LockstepKafkaContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		LockstepKafkaTest test = TestContextAnnotationUtils.findMergedAnnotation(testClass, LockstepKafkaTest.class);
		return (test != null) ? new LockstepKafkaContextCustomizer(List.of(test.topics()), test.partitions()) : null;
	}

}
