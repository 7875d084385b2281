package dev.lockstep.autoconfigure.validation;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.lockstep.registry.internal.Redaction;
import org.apache.kafka.clients.admin.AdminClientConfig;

import org.springframework.core.log.LogAccessor;

/**
 * Plaintext to a non-loopback broker or registry logs a warning, or stops start-up when
 * {@code lockstep.security.require-encryption=true}. Every client Lockstep builds is
 * checked with its own effective properties: each worker's consumer and producer, the
 * named producers, the listener containers' consumer and producer, the Kafka health
 * indicator's admin client, Spring's {@code KafkaAdmin} where it creates Lockstep's topics,
 * and every registry URL.
 */
public final class TransportSecurity {

	private static final LogAccessor logger = new LogAccessor(TransportSecurity.class);

	/** Plaintext endpoints already warned about: one warning each, not one per client. */
	private static final Set<String> warned = ConcurrentHashMap.newKeySet();

	private final boolean requireEncryption;

	private final PropertyOrigins origins;

	/**
	 * Create the check.
	 * @param requireEncryption whether plaintext is refused
	 */
	public TransportSecurity(boolean requireEncryption) {
		this(requireEncryption, null);
	}

	/**
	 * Create the check, naming where refused settings come from.
	 * @param requireEncryption whether plaintext is refused
	 * @param origins where properties come from, or {@code null}
	 */
	public TransportSecurity(boolean requireEncryption, PropertyOrigins origins) {
		this.requireEncryption = requireEncryption;
		this.origins = origins;
	}

	/**
	 * Check the brokers a client configuration reaches.
	 * @param clientConfig Kafka client properties (bootstrap.servers, security.protocol)
	 */
	public void checkBrokers(Map<String, Object> clientConfig) {
		checkClient("a Kafka client", null, null, clientConfig);
	}

	/**
	 * Check the brokers one client reaches with its effective properties.
	 * @param client what the client is, such as {@code worker 'orders' consumer}
	 * @param ownPrefix the client's own property map, such as
	 * {@code lockstep.workers.orders.consumer}, or {@code null}
	 * @param springClient the client's section of {@code spring.kafka} ({@code consumer} or
	 * {@code producer}), or {@code null}
	 * @param clientConfig the client's effective properties (bootstrap.servers, security.protocol)
	 */
	public void checkClient(String client, String ownPrefix, String springClient, Map<String, Object> clientConfig) {
		Object servers = clientConfig.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
		List<String> bootstrapServers = (servers instanceof Collection<?> list)
				? list.stream().map(String::valueOf).toList()
				: (servers != null) ? List.of(servers.toString().split(",")) : List.of();
		Object configured = clientConfig.get(AdminClientConfig.SECURITY_PROTOCOL_CONFIG);
		String protocol = (configured != null) ? configured.toString().trim().toUpperCase(Locale.ROOT) : "PLAINTEXT";
		if (protocol.equals("SSL") || protocol.equals("SASL_SSL")) {
			return;
		}
		for (String entry : bootstrapServers) {
			String server = entry.trim();
			String host = server.contains(":") ? server.substring(0, server.lastIndexOf(':')) : server;
			if (!server.isEmpty() && !isLoopback(host)) {
				String problem = "Kafka broker " + server + " is reached over " + protocol + ", without TLS";
				if (!this.requireEncryption) {
					warn(problem);
					continue;
				}
				String[] where = bootstrapSource(ownPrefix, springClient);
				throw new LockstepConfigurationException(where[0], where[1],
						client + " reaches Kafka broker " + server + " over " + protocol
								+ ", without TLS, but lockstep.security.require-encryption=true",
						"Use TLS: security.protocol=SSL or SASL_SSL (spring.kafka.security.protocol"
								+ ((ownPrefix != null) ? ", or " + ownPrefix + ".security.protocol for this client only"
										: "")
								+ "), or a loopback broker.");
			}
		}
	}

	/**
	 * Check the schema registry URLs of {@code lockstep.registry.url}. An unparsable URL is
	 * refused whatever the setting, and never echoed with its password.
	 * @param urls the registry base URLs
	 */
	public void checkRegistry(Collection<String> urls) {
		checkRegistry(urls, "lockstep.registry.url");
	}

	/**
	 * Check the schema registry URLs of a source. An unparsable URL is refused whatever
	 * the setting, and never echoed with its password.
	 * @param urls the registry base URLs
	 * @param property where they come from: {@code lockstep.registry.url}, or a
	 * description of the connection details bean that gave them
	 */
	public void checkRegistry(Collection<String> urls, String property) {
		for (String url : urls) {
			URI uri;
			try {
				uri = new URI(url.trim());
			}
			catch (URISyntaxException ex) {
				// The exception's message holds the whole URL, password included.
				throw new LockstepConfigurationException(property, origin(property),
						"'" + Redaction.url(url.trim()) + "' is not a valid URL: " + ex.getReason()
								+ ((ex.getIndex() >= 0) ? " at index " + ex.getIndex() : ""),
						"Correct the URL. Credentials belong in lockstep.registry.username and "
								+ "lockstep.registry.password, not in the URL.");
			}
			if ("http".equalsIgnoreCase(uri.getScheme()) && !isLoopback(uri.getHost())) {
				String registry = (uri.getHost() != null) ? uri.getHost() : Redaction.url(url.trim());
				String problem = "schema registry " + registry + " is reached over http";
				if (!this.requireEncryption) {
					warn(problem);
					continue;
				}
				throw new LockstepConfigurationException(property, origin(property),
						problem + " but lockstep.security.require-encryption=true",
						"Use TLS: an https registry URL, or a loopback registry.");
			}
		}
	}

	private String[] bootstrapSource(String ownPrefix, String springClient) {
		List<String> candidates = new ArrayList<>();
		if (ownPrefix != null) {
			candidates.add(ownPrefix + ".bootstrap.servers");
		}
		if (springClient != null) {
			candidates.add("spring.kafka." + springClient + ".bootstrap-servers");
			candidates.add("spring.kafka." + springClient + ".properties.bootstrap.servers");
		}
		candidates.add("spring.kafka.bootstrap-servers");
		candidates.add("spring.kafka.properties.bootstrap.servers");
		if (this.origins != null) {
			String[] found = this.origins.firstSet(candidates.toArray(String[]::new));
			if (found[1] != null) {
				return found;
			}
		}
		// Set by KafkaConnectionDetails (Testcontainers, the development broker), not a property.
		return new String[] { "spring.kafka.bootstrap-servers", null };
	}

	private String origin(String property) {
		return (this.origins != null) ? this.origins.of(property) : null;
	}

	private static void warn(String problem) {
		if (warned.add(problem)) {
			logger.warn(() -> problem + ": traffic and credentials are readable on the network");
		}
	}

	private static boolean isLoopback(String host) {
		if (host == null) {
			return false;
		}
		String bare = host.replace("[", "").replace("]", "");
		if (bare.equalsIgnoreCase("localhost")) {
			return true;
		}
		try {
			// Literal addresses only: no name is looked up on the network.
			return bare.matches("[0-9.]+|[0-9a-fA-F:]+") && InetAddress.getByName(bare).isLoopbackAddress();
		}
		catch (Exception ex) {
			return false;
		}
	}

}
