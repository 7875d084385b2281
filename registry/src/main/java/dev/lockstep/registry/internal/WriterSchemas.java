package dev.lockstep.registry.internal;

import java.util.Map;
import java.util.function.Function;

import dev.lockstep.registry.DataContractException;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.SchemaId;
import dev.lockstep.registry.UnsupportedSchemaException;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Fetching a message's writer schema, with the one rule every decoder shares about what
 * a registry failure means. Internal: not API.
 */
public final class WriterSchemas {

	/** The registry's error code for a schema id it does not know. */
	public static final int SCHEMA_NOT_FOUND = 40403;

	/**
	 * How many times the registry must answer that it does not know an id before the
	 * id's messages are invalid data: until then the failure is retried (by a worker, with
	 * its back-off), since a registry follower may not yet know an id its leader assigned.
	 */
	public static final int UNKNOWN_ID_ANSWERS = 5;

	private WriterSchemas() {
	}

	/**
	 * Fetch a writer schema by id or GUID, which must be of the decoder's type and carry
	 * no data-contract rule to run on read that the client does not ignore.
	 * @param client the registry client
	 * @param id the id or GUID read from the message
	 * @param type the schema type the decoder reads, such as {@link RegistrySchema#JSON}
	 * @return the schema, its references unresolved
	 * @throws InvalidDataException when the registry says the id is unknown, it is the id
	 * of a schema of another type, or its schema has a rule to run on read
	 * ({@link dev.lockstep.registry.DataContractException} as the cause)
	 * @throws SerializationException caused by the {@link RegistryException} for every
	 * other registry failure (retry later)
	 */
	public static RegistrySchema schema(RegistryClient client, SchemaId id, String type) {
		RegistrySchema written = fetch(client, id, client::schema);
		if (!written.type().equals(type)) {
			throw new InvalidDataException("Schema id " + id + " is a " + written.type() + " schema, not " + type);
		}
		try {
			DataContracts.check(written, DataContracts.Direction.READ, client.ignoredRules());
		}
		catch (DataContractException ex) {
			throw new InvalidDataException("Writer schema " + id + ": " + ex.getMessage(), ex);
		}
		return written;
	}

	/**
	 * Check the schema a serializer writes with: it must carry no data-contract rule to run
	 * on write that the client does not ignore.
	 * @param client the registry client
	 * @param subject the subject the id was resolved under, for messages
	 * @param id the id the serializer writes
	 * @return the id
	 * @throws SerializationException caused by the
	 * {@link dev.lockstep.registry.DataContractException} (a worker retries, writing
	 * nothing, until the rule is ignored or gone), or by the {@link RegistryException} of
	 * a registry failure
	 */
	public static long writable(RegistryClient client, String subject, long id) {
		try {
			DataContracts.check(client.schema(id), DataContracts.Direction.WRITE, client.ignoredRules());
			return id;
		}
		catch (RegistryException ex) {
			throw new SerializationException("Cannot write with schema " + id + " of subject " + subject + ": "
					+ ex.getMessage(), ex);
		}
	}

	/**
	 * Fetch the schemas a writer schema references, under the same rule.
	 * @param client the registry client
	 * @param id the writer schema's id, for messages
	 * @param schema the writer schema
	 * @return the referenced schemas' texts by the names they are referenced by
	 * @throws InvalidDataException when a reference can never be resolved
	 * @throws SerializationException caused by the {@link RegistryException} for every
	 * other registry failure (retry later)
	 */
	public static Map<String, String> references(RegistryClient client, SchemaId id, RegistrySchema schema) {
		return fetch(client, id, (ignored) -> client.referencedSchemas(schema));
	}

	/**
	 * Fetch a writer schema by id.
	 * @param <S> the schema's type
	 * @param client the registry client, which counts the registry's answers that an id
	 * is unknown
	 * @param id the id read from the message
	 * @param fetch the registry call
	 * @return the schema
	 * @throws InvalidDataException when the registry has said {@link #UNKNOWN_ID_ANSWERS}
	 * times that the id is unknown, or holds a schema Lockstep cannot use
	 * ({@link UnsupportedSchemaException})
	 * @throws SerializationException caused by the {@link RegistryException} for every
	 * other registry failure, and for an unknown id answered fewer times (retry later)
	 */
	public static <S> S fetch(RegistryClient client, SchemaId id, Function<SchemaId, S> fetch) {
		try {
			return fetch.apply(id);
		}
		catch (UnsupportedSchemaException ex) {
			throw new InvalidDataException("Writer schema " + id + ": " + ex.getMessage(), ex);
		}
		catch (RegistryException ex) {
			// Only the registry's own "schema not found" proves the id unknown: a bare 404
			// (a proxy, a wrong path, a registry still starting) may be transient.
			if (ex.errorCode() == SCHEMA_NOT_FOUND) {
				int answers = client.unknownIdAnswers(id);
				if (answers >= UNKNOWN_ID_ANSWERS) {
					throw new InvalidDataException("Unknown schema id " + id + " (the registry said so " + answers
							+ " times): " + ex.getMessage(), ex);
				}
				throw new SerializationException("Schema id " + id + " is unknown to the registry (answer " + answers
						+ " of " + UNKNOWN_ID_ANSWERS + " before its messages are invalid data): " + ex.getMessage(), ex);
			}
			throw new SerializationException("Could not fetch writer schema " + id + " from the registry: "
					+ ex.getMessage(), ex);
		}
	}

}
