package dev.lockstep.test.kafka;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The least privilege of one Lockstep worker's user, as docs/security.md lists it: READ
 * on each input topic and on the group, WRITE on each topic it writes (its destination,
 * its quarantine topic), WRITE on its transactional ids (a prefix: each slot appends its
 * own suffix). Nothing else: no cluster, no {@code CREATE}, no {@code DESCRIBE} on the
 * transaction state log.
 *
 * @param user the principal's name, {@code User:<user>}
 * @param inputTopics the worker's {@code source-topics}
 * @param groupId the worker's {@code group-id}
 * @param outputTopics the topics the worker writes: its destination, then its quarantine topic
 * @param transactionalId the worker's {@code transactional-id}
 */
public record WorkerAcls(String user, List<String> inputTopics, String groupId, List<String> outputTopics,
		String transactionalId) {

	/**
	 * Return the ACLs, in order: input topics READ, group READ, output topics WRITE,
	 * transactional id prefix WRITE.
	 * @return the bindings to {@linkplain SecuredKafkaBroker#grant grant}
	 */
	public List<AclBinding> bindings() {
		List<AclBinding> bindings = new ArrayList<>();
		this.inputTopics.forEach((topic) -> bindings.add(allow(ResourceType.TOPIC, topic, PatternType.LITERAL,
				AclOperation.READ)));
		bindings.add(allow(ResourceType.GROUP, this.groupId, PatternType.LITERAL, AclOperation.READ));
		this.outputTopics.forEach((topic) -> bindings.add(allow(ResourceType.TOPIC, topic, PatternType.LITERAL,
				AclOperation.WRITE)));
		// Slot ids are "<transactional-id>-<instance>-<slot>": the prefix with its dash only.
		bindings.add(allow(ResourceType.TRANSACTIONAL_ID, this.transactionalId + "-", PatternType.PREFIXED,
				AclOperation.WRITE));
		return bindings;
	}

	private AclBinding allow(ResourceType type, String name, PatternType pattern, AclOperation operation) {
		return new AclBinding(new ResourcePattern(type, name, pattern),
				new AccessControlEntry("User:" + this.user, "*", operation, AclPermissionType.ALLOW));
	}

}
