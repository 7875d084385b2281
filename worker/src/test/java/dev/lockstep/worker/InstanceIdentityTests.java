package dev.lockstep.worker;

import java.util.HashMap;
import java.util.Map;

import dev.lockstep.worker.InstanceIdentity.Kind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class InstanceIdentityTests {

	private static final Map<String, String> KUBERNETES = Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1");

	@Test
	void theEnvironmentVariableWinsOverEverythingElse() {
		InstanceIdentity identity = InstanceIdentity.resolve(Map.of("LOCKSTEP_INSTANCE_ID", " eu-west-1a ",
				"KUBERNETES_SERVICE_HOST", "10.96.0.1", "HOSTNAME", "normalizer-2"));
		assertThat(identity).isEqualTo(new InstanceIdentity("eu-west-1a", Kind.CONFIGURED, "LOCKSTEP_INSTANCE_ID"));
		assertThat(identity.isStable()).isTrue();
	}

	@Test
	void aStatefulSetPodIsItsNameUniqueInItsNamespaceAndStable() {
		InstanceIdentity identity = InstanceIdentity.resolve(with("HOSTNAME", "normalizer-12"));
		assertThat(identity.id()).isEqualTo("normalizer-12");
		assertThat(identity.kind()).isEqualTo(Kind.STATEFUL_SET);
		assertThat(identity.origin()).isEqualTo("StatefulSet pod normalizer-12 (HOSTNAME)");
		assertThat(identity.isStable()).isTrue();
		assertThat(InstanceIdentity.resolve(with("HOSTNAME", "web-0")).id()).isEqualTo("web-0");
		assertThat(InstanceIdentity.resolve(with("HOSTNAME", "web-0.web.orders.svc.cluster.local")).id())
			.as("setHostnameAsFQDN").isEqualTo("web-0");
		assertThat(InstanceIdentity.resolve(with("HOSTNAME", "blue-0")))
			.as("two sets sharing one configuration").isNotEqualTo(InstanceIdentity.resolve(with("HOSTNAME", "green-0")));
	}

	@Test
	void aDeploymentPodALaptopOrAnyOtherHostGetsAGeneratedIdentity() {
		// A Deployment's pods end in five characters of their own, digits only now and then.
		assertThat(InstanceIdentity.resolve(with("HOSTNAME", "normalizer-7d9f8b6c5-x2k4q")).kind())
			.isEqualTo(Kind.GENERATED);
		assertThat(InstanceIdentity.resolve(with("HOSTNAME", "normalizer-7d9f8b6c5-24567")).kind())
			.isEqualTo(Kind.GENERATED);
		assertThat(InstanceIdentity.resolve(with("HOSTNAME", "normalizer-02")).kind()).as("no ordinal has a leading 0")
			.isEqualTo(Kind.GENERATED);
		assertThat(InstanceIdentity.resolve(Map.of("HOSTNAME", "build-agent-3")).kind())
			.as("a name like a pod's, but no Kubernetes: two processes on one host would share it")
			.isEqualTo(Kind.GENERATED);
		assertThat(InstanceIdentity.resolve(Map.of()).kind()).isEqualTo(Kind.GENERATED);
	}

	@Test
	void generatedIdentitiesDifferAndAreNotStable() {
		InstanceIdentity one = InstanceIdentity.generated();
		assertThat(one.id()).hasSize(8).matches("[0-9a-f]+");
		assertThat(one.isStable()).isFalse();
		assertThat(one.origin()).startsWith("generated");
		assertThat(InstanceIdentity.generated().id()).isNotEqualTo(one.id());
	}

	@Test
	void anIdKafkaWouldRefuseIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> InstanceIdentity.configured("pod 1", "lockstep.instance-id"))
			.withMessage("An instance id must be letters, digits, '.', '_' and '-', not 'pod 1' (from "
					+ "lockstep.instance-id)");
		assertThatIllegalArgumentException().isThrownBy(() -> InstanceIdentity.resolve(Map.of("LOCKSTEP_INSTANCE_ID",
				"a/b")));
	}

	@Test
	void theInstanceIsAddedToTheBaseUnlessTheBaseAlreadyEndsInThisPodsOrdinal() {
		InstanceIdentity pod2 = InstanceIdentity.resolve(with("HOSTNAME", "normalizer-2"));
		assertThat(pod2.transactionalIdBase("cookbook")).isEqualTo("cookbook-normalizer-2");
		assertThat(pod2.transactionalIdBase("normalizer-pod2")).as("templated per pod before the identity existed")
			.isEqualTo("normalizer-pod2");
		assertThat(pod2.transactionalIdBase("orders-v12")).as("another number").isEqualTo("orders-v12-normalizer-2");
		assertThat(pod2.transactionalIdBase("2")).isEqualTo("2-normalizer-2");
		assertThat(InstanceIdentity.configured("2", "test").transactionalIdBase("normalizer-pod2"))
			.as("only a StatefulSet pod's ordinal is recognised").isEqualTo("normalizer-pod2-2");
		assertThat(pod2.transactionalIdPrefix("orders-")).isEqualTo("orders-normalizer-2-");
		InstanceIdentity generated = InstanceIdentity.generated();
		assertThat(generated.transactionalIdBase("normalizer")).isEqualTo("normalizer-" + generated.id());
	}

	private static Map<String, String> with(String key, String value) {
		Map<String, String> environment = new HashMap<>(KUBERNETES);
		environment.put(key, value);
		return environment;
	}

}
