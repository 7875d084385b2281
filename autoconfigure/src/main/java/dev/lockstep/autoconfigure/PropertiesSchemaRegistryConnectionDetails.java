package dev.lockstep.autoconfigure;

import java.util.List;

/**
 * {@link SchemaRegistryConnectionDetails} from {@code lockstep.registry.*}.
 */
class PropertiesSchemaRegistryConnectionDetails implements SchemaRegistryConnectionDetails {

	private final LockstepProperties.Registry properties;

	PropertiesSchemaRegistryConnectionDetails(LockstepProperties.Registry properties) {
		this.properties = properties;
	}

	@Override
	public List<String> getUrls() {
		return this.properties.getUrl();
	}

	@Override
	public String getUsername() {
		return this.properties.getUsername();
	}

	@Override
	public String getPassword() {
		return this.properties.getPassword();
	}

	@Override
	public String getBearerToken() {
		return this.properties.getBearerToken();
	}

}
