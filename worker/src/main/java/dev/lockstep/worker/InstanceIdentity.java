package dev.lockstep.worker;

import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who this running instance of an application is, among the replicas that share its
 * configuration: part of every slot's transactional id ({@code <base>-<instance>-<slot>}),
 * so that identical replicas never share one. Resolved once at start-up, in this order:
 * an id given explicitly (the {@value #ENVIRONMENT_VARIABLE} environment variable, or
 * {@code lockstep.instance-id} under Spring Boot); a StatefulSet pod's name (on Kubernetes,
 * {@code HOSTNAME} {@code <set>-<ordinal>}: unique in its namespace, the same after a
 * restart); else a generated one.
 * <p>
 * Only a stable identity (given or an ordinal) comes back after a restart: a restarted
 * slot then fences its predecessor and aborts its open transaction at once, and may be a
 * static group member. A generated identity is new on every start: its slots join as
 * dynamic members, and a crashed instance's open transaction is aborted by the broker
 * after the transaction timeout.
 *
 * @param id the identity, letters, digits, {@code .}, {@code _} and {@code -}
 * @param kind where it came from
 * @param origin what it was read from, for the start-up log
 */
public record InstanceIdentity(String id, Kind kind, String origin) {

	/** The environment variable that gives the identity explicitly. */
	public static final String ENVIRONMENT_VARIABLE = "LOCKSTEP_INSTANCE_ID";

	// Kafka's characters for a group.instance.id, which a static member's id is part of.
	private static final Pattern VALID = Pattern.compile("[a-zA-Z0-9._-]+");

	// A StatefulSet pod's name. A Deployment's pods end in five characters of their own,
	// never in a shorter number: 10,000 replicas of one set are not a deployment anyone runs.
	private static final Pattern STATEFUL_SET_POD = Pattern.compile(".+-(0|[1-9][0-9]{0,3})");

	public InstanceIdentity {
		Objects.requireNonNull(kind, "kind");
		if (id == null || !VALID.matcher(id).matches()) {
			throw new IllegalArgumentException("An instance id must be letters, digits, '.', '_' and '-', not '" + id
					+ "' (from " + origin + ")");
		}
	}

	/**
	 * An identity given explicitly.
	 * @param id the identity
	 * @param origin where it was given, such as {@code lockstep.instance-id}
	 * @return the identity
	 */
	public static InstanceIdentity configured(String id, String origin) {
		return new InstanceIdentity(id, Kind.CONFIGURED, origin);
	}

	/**
	 * A new identity, unique among the live instances.
	 * @return the identity
	 */
	public static InstanceIdentity generated() {
		return new InstanceIdentity(UUID.randomUUID().toString().substring(0, 8), Kind.GENERATED,
				"generated: no instance id given and not a StatefulSet pod");
	}

	/**
	 * Resolve the identity from an environment: {@value #ENVIRONMENT_VARIABLE}; else the
	 * name of a StatefulSet pod (on Kubernetes, {@code KUBERNETES_SERVICE_HOST} set,
	 * {@code HOSTNAME} ending in {@code -<ordinal>}, its domain, if any, left out); else
	 * {@link #generated()}.
	 * @param environment the environment, such as {@link System#getenv()}
	 * @return the identity
	 */
	public static InstanceIdentity resolve(Map<String, String> environment) {
		String explicit = environment.get(ENVIRONMENT_VARIABLE);
		if (explicit != null && !explicit.isBlank()) {
			return configured(explicit.trim(), ENVIRONMENT_VARIABLE);
		}
		String hostname = environment.get("HOSTNAME");
		if (environment.containsKey("KUBERNETES_SERVICE_HOST") && hostname != null) {
			String pod = hostname.strip().split("\\.", 2)[0];
			if (STATEFUL_SET_POD.matcher(pod).matches()) {
				return new InstanceIdentity(pod, Kind.STATEFUL_SET, "StatefulSet pod " + pod + " (HOSTNAME)");
			}
		}
		return generated();
	}

	/**
	 * Whether the identity is the same after a restart.
	 * @return {@code false} for a generated identity
	 */
	public boolean isStable() {
		return this.kind != Kind.GENERATED;
	}

	/**
	 * The base of this instance's transactional ids: {@code <base>-<id>}; the base alone
	 * when it already ends in this StatefulSet pod's ordinal ({@code normalizer-pod${POD_ORDINAL}},
	 * as configurations templated per pod before the identity existed), so that their
	 * ids stay as they were. Either way unique per pod of the set: two ordinals never both
	 * end a base.
	 * @param base the configured base
	 * @return the instance's base
	 */
	public String transactionalIdBase(String base) {
		return carriedBy(base) ? base : base + "-" + this.id;
	}

	/**
	 * The prefix of this instance's transactional producers' ids, as spring-kafka's
	 * producer factories take it: {@code <prefix><id>-}.
	 * @param prefix the configured prefix, such as {@code orders-}
	 * @return the instance's prefix
	 */
	public String transactionalIdPrefix(String prefix) {
		return prefix + this.id + "-";
	}

	/**
	 * Whether a configured base already ends in this StatefulSet pod's ordinal.
	 * @param base the configured base
	 * @return {@code true} only for a StatefulSet pod whose ordinal ends the base, after a non-digit
	 */
	public boolean carriedBy(String base) {
		if (this.kind != Kind.STATEFUL_SET) {
			return false;
		}
		String ordinal = this.id.substring(this.id.lastIndexOf('-') + 1);
		return base.endsWith(ordinal) && base.length() > ordinal.length()
				&& !Character.isDigit(base.charAt(base.length() - ordinal.length() - 1));
	}

	@Override
	public String toString() {
		return this.id + " (" + this.origin + ")";
	}

	/**
	 * Where an identity came from.
	 */
	public enum Kind {

		/** Given explicitly. */
		CONFIGURED,

		/** A StatefulSet pod's name. */
		STATEFUL_SET,

		/** Generated at start-up: new on every start. */
		GENERATED

	}

}
