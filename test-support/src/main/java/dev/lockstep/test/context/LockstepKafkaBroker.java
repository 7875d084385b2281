package dev.lockstep.test.context;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.test.context.ContextCustomizerFactories;

/**
 * Gives a Spring Boot test a real Kafka broker, as spring-kafka's {@code @EmbeddedKafka}
 * does: the broker {@link dev.lockstep.test.kafka.TestBrokers} chooses (Kafka's own KRaft
 * broker in the test JVM unless told otherwise), published as the application's
 * {@code KafkaConnectionDetails} (no {@code spring.kafka.bootstrap-servers} to plumb),
 * and a {@link TestKafka} bean to seed topics and read them {@code read_committed}.
 * <p>
 * The broker belongs to the test's application context: test classes that share a
 * context (Spring's context cache) share the broker, and it stops after the context's
 * other beans when the context closes, so no client outlives it.
 * <pre class="code">
 * &#64;SpringBootTest
 * &#64;LockstepKafkaBroker(topics = { "payments", "payments-enriched" })
 * class PaymentEnricherTests {
 *
 *     &#64;Autowired
 *     TestKafka kafka;
 *     ...
 * }
 * </pre>
 * <p>
 * With {@link #secured()} the broker is a {@link dev.lockstep.test.kafka.SecuredKafkaBroker}
 * instead: the application reaches it over {@code SASL_SSL} with SCRAM-SHA-512 (its
 * {@code spring.kafka.*} security properties set for it, the broker's authority trusted)
 * as a user that holds only the ACLs of {@link #acls()}, so a test proves that the
 * service works under its least privilege; {@link TestKafka} seeds and reads over the
 * broker's administration listener.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ContextCustomizerFactories(LockstepKafkaContextCustomizerFactory.class)
public @interface LockstepKafkaBroker {

	/**
	 * Topics to create before the application context starts.
	 * @return the topic names
	 */
	String[] topics() default {};

	/**
	 * Partitions of each topic in {@link #topics()}.
	 * @return the partition count
	 */
	int partitions() default 1;

	/**
	 * Whether the broker is secured (SASL_SSL, SCRAM, ACLs), the application a user
	 * holding only {@link #acls()}.
	 * @return whether the broker is secured
	 */
	boolean secured() default false;

	/**
	 * The ACLs of the application's user on a {@linkplain #secured() secured} broker: one
	 * worker's least privilege each.
	 * @return the workers' ACLs
	 */
	WorkerAcl[] acls() default {};

}
