package dev.lockstep.test.context;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * One worker's least privilege, granted to the application's user on a
 * {@linkplain LockstepKafkaBroker#secured() secured} test broker: READ on its input topics
 * and its group, WRITE on the topics it writes and on its transactional id prefix
 * ({@link dev.lockstep.test.kafka.WorkerAcls}).
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface WorkerAcl {

	/**
	 * The worker's {@code source-topics}.
	 * @return the input topics
	 */
	String[] read();

	/**
	 * The worker's {@code group-id} (by default its name).
	 * @return the group id
	 */
	String group();

	/**
	 * The topics the worker writes: its destination, and its quarantine topic if any.
	 * @return the output topics
	 */
	String[] write();

	/**
	 * The worker's {@code transactional-id}.
	 * @return the transactional id base
	 */
	String transactionalId();

}
