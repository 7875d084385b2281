package dev.lockstep.autoconfigure.endpoint;

import java.util.Map;

import dev.lockstep.worker.InstanceIdentity;

import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;

/**
 * Adds this instance's identity to {@code /actuator/info} ({@code lockstep.instance}): the
 * part of every slot's transactional id that tells this replica from the others.
 */
public class LockstepInfoContributor implements InfoContributor {

	private final InstanceIdentity instance;

	/**
	 * Create the contributor.
	 * @param instance this instance's identity
	 */
	public LockstepInfoContributor(InstanceIdentity instance) {
		this.instance = instance;
	}

	@Override
	public void contribute(Info.Builder builder) {
		builder.withDetail("lockstep", Map.of("instance", Map.of("id", this.instance.id(), "kind",
				this.instance.kind().name(), "origin", this.instance.origin())));
	}

}
