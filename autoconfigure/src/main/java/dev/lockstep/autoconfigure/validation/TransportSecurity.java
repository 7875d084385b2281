package dev.lockstep.autoconfigure.validation;

import java.net.InetAddress;
import java.net.URI;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Locale;

import org.apache.kafka.clients.CommonClientConfigs;

import org.springframework.core.log.LogAccessor;

/**
 * Plaintext to a non-loopback broker or registry logs a warning, or stops start-up when
 * {@code lockstep.security.require-encryption=true}.
 */
public final class TransportSecurity {

	private static final LogAccessor logger = new LogAccessor(TransportSecurity.class);

	private final boolean requireEncryption;

	/**
	 * Create the check.
	 * @param requireEncryption whether plaintext is refused
	 */
	public TransportSecurity(boolean requireEncryption) {
		this.requireEncryption = requireEncryption;
	}

	/**
	 * Check the brokers a client configuration reaches.
	 * @param clientConfig Kafka client properties (bootstrap.servers, security.protocol)
	 */
	public void checkBrokers(Map<String, Object> clientConfig) {
		Object servers = clientConfig.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
		List<String> bootstrapServers = (servers instanceof Collection<?> list)
				? list.stream().map(String::valueOf).toList()
				: (servers != null) ? List.of(servers.toString().split(",")) : List.of();
		Object protocol = clientConfig.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG);
		checkBrokers(bootstrapServers, (protocol != null) ? protocol.toString() : null);
	}

	/**
	 * Check the brokers a client reaches.
	 * @param bootstrapServers host:port entries
	 * @param securityProtocol the client's security.protocol, or {@code null} for PLAINTEXT
	 */
	public void checkBrokers(Collection<String> bootstrapServers, String securityProtocol) {
		String protocol = (securityProtocol != null) ? securityProtocol.toUpperCase(Locale.ROOT) : "PLAINTEXT";
		if (protocol.startsWith("SSL") || protocol.equals("SASL_SSL")) {
			return;
		}
		for (String server : bootstrapServers) {
			String host = server.contains(":") ? server.substring(0, server.lastIndexOf(':')) : server;
			if (!isLoopback(host)) {
				refuseOrWarn("spring.kafka.security.protocol", "Kafka broker " + server + " is reached over "
						+ protocol + ", without TLS");
			}
		}
	}

	/**
	 * Check the schema registry URLs.
	 * @param urls the registry base URLs
	 */
	public void checkRegistry(Collection<String> urls) {
		for (String url : urls) {
			URI uri = URI.create(url.trim());
			if ("http".equalsIgnoreCase(uri.getScheme()) && !isLoopback(uri.getHost())) {
				refuseOrWarn("lockstep.registry.url", "schema registry " + uri.getHost() + " is reached over http");
			}
		}
	}

	private void refuseOrWarn(String property, String problem) {
		if (this.requireEncryption) {
			throw new LockstepConfigurationException(property, null,
					problem + " but lockstep.security.require-encryption=true",
					"Use TLS (spring.kafka.security.protocol=SSL or SASL_SSL; an https registry URL).");
		}
		logger.warn(() -> problem + ": traffic and credentials are readable on the network");
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
