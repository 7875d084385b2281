package dev.lockstep.test.context;

import java.util.List;
import java.util.stream.Stream;

import dev.lockstep.test.kafka.WorkerAcls;

import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Creates the {@link LockstepKafkaContextCustomizer} of a test class annotated with
 * {@link LockstepKafkaBroker}.
 */
class LockstepKafkaContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		LockstepKafkaBroker test = TestContextAnnotationUtils.findMergedAnnotation(testClass, LockstepKafkaBroker.class);
		if (test != null && !test.secured() && test.acls().length > 0) {
			throw new IllegalStateException("@LockstepKafkaBroker on " + testClass.getName()
					+ " lists acls without secured = true: a plaintext test broker has no ACLs");
		}
		// Sorted: the order topics are listed in must not make another context (and broker).
		return (test != null)
				? new LockstepKafkaContextCustomizer(Stream.of(test.topics()).sorted().distinct().toList(),
						test.partitions(), test.secured(),
						Stream.of(test.acls()).map(LockstepKafkaContextCustomizerFactory::workerAcls).toList())
				: null;
	}

	private static WorkerAcls workerAcls(WorkerAcl acl) {
		return new WorkerAcls(LockstepKafkaContextCustomizer.USER, List.of(acl.read()), acl.group(),
				List.of(acl.write()), acl.transactionalId());
	}

}
