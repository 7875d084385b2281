package dev.lockstep.autoconfigure;

import java.util.List;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Details to connect to a schema registry. When a bean of this type exists, the registry
 * client is built from it instead of {@code lockstep.registry.url}, {@code .username},
 * {@code .password} and {@code .bearer-token}; the other {@code lockstep.registry.*}
 * settings (timeouts, trust, retries) still apply. Testcontainers' {@code @ServiceConnection}
 * and Spring Boot's Docker Compose support provide one for the registry images Lockstep
 * knows.
 */
public interface SchemaRegistryConnectionDetails extends ConnectionDetails {

	/**
	 * Return the registry's base URLs; a request fails over to the next one.
	 * @return the URLs, at least one
	 */
	List<String> getUrls();

	/**
	 * Return the user for HTTP Basic authentication.
	 * @return the user, or {@code null} for none
	 */
	default String getUsername() {
		return null;
	}

	/**
	 * Return the password for HTTP Basic authentication.
	 * @return the password, or {@code null}
	 */
	default String getPassword() {
		return null;
	}

	/**
	 * Return a static bearer token, instead of Basic authentication.
	 * @return the token, or {@code null} for none
	 */
	default String getBearerToken() {
		return null;
	}

}
