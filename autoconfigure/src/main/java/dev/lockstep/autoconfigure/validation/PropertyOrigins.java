package dev.lockstep.autoconfigure.validation;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

/**
 * Where a property was set: the file and line, or the environment variable, for
 * start-up failure reports.
 */
public final class PropertyOrigins {

	private final Iterable<ConfigurationPropertySource> sources;

	/**
	 * Create a lookup over an environment's property sources.
	 * @param environment the environment
	 */
	public PropertyOrigins(Environment environment) {
		this.sources = ConfigurationPropertySources.get(environment);
	}

	/**
	 * Return where a property was set.
	 * @param property the property name, in its canonical dotted form
	 * @return a description of its origin, or {@code null} when it is not set anywhere
	 */
	public String of(String property) {
		ConfigurationPropertyName name = ConfigurationPropertyName.adapt(property, '.');
		for (ConfigurationPropertySource source : this.sources) {
			ConfigurationProperty found = source.getConfigurationProperty(name);
			if (found != null) {
				Origin origin = found.getOrigin();
				return (origin != null) ? origin.toString() : String.valueOf(found.getSource().getUnderlyingSource());
			}
		}
		return null;
	}

	/**
	 * Return the first of several candidate properties that is set, with its origin.
	 * @param candidates property names, most specific first
	 * @return {@code {name, origin}}, or the first candidate with a {@code null} origin
	 */
	public String[] firstSet(String... candidates) {
		for (String candidate : candidates) {
			String origin = of(candidate);
			if (origin != null) {
				return new String[] { candidate, origin };
			}
		}
		return new String[] { candidates[0], null };
	}

}
