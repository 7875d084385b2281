package dev.lockstep.registry.protobuf;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Message;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.RegistryClient;
import dev.lockstep.registry.RegistryException;
import dev.lockstep.registry.RegistrySchema;
import dev.lockstep.registry.SchemaReference;
import dev.lockstep.registry.SchemaIdSource;
import dev.lockstep.registry.SubjectVersion;
import dev.lockstep.registry.UnsupportedSchemaException;
import dev.lockstep.registry.WireFormat;
import dev.lockstep.registry.internal.WriterSchemas;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Encodes messages of one generated Protobuf type in the Confluent wire format (magic byte
 * {@code 0}, the schema's 4-byte id, the {@link MessageIndexes message indexes}, the
 * message's bytes) under one subject, as Confluent's {@code KafkaProtobufSerializer} does.
 * The schema is the type's {@code .proto} file; its id is resolved when the serializer is
 * built, so the record path does no registry I/O. A {@code null} value (a tombstone)
 * stays {@code null}. Thread-safe.
 *
 * @param <T> the generated message type
 */
public final class ProtobufSerializer<T extends Message> {

	private final Descriptor descriptor;

	private final long schemaId;

	private final byte[] header;

	private final int maxBytes;

	private ProtobufSerializer(Descriptor descriptor, ProtobufSchema schema, long schemaId, int maxBytes) {
		this.descriptor = descriptor;
		this.schemaId = schemaId;
		byte[] indexes = MessageIndexes.encode(schema.indexesOf(descriptor));
		this.header = new byte[WireFormat.HEADER_BYTES + indexes.length];
		WireFormat.writeHeader(schemaId, this.header);
		System.arraycopy(indexes, 0, this.header, WireFormat.HEADER_BYTES, indexes.length);
		this.maxBytes = maxBytes;
	}

	/**
	 * Create a serializer that looks its schema up under the subject and writes messages
	 * of at most 64 MiB.
	 * @param <T> the message type
	 * @param client the registry client
	 * @param subject the subject, such as {@code orders-value}
	 * @param descriptor the generated type's descriptor, such as {@code Order.getDescriptor()}
	 * @return the serializer
	 * @throws RegistryException when the schema is not registered or the registry fails
	 * @throws org.apache.kafka.common.errors.SerializationException caused by a
	 * {@link dev.lockstep.registry.DataContractException} when the schema carries a data-contract
	 * rule to run on write
	 */
	public static <T extends Message> ProtobufSerializer<T> of(RegistryClient client, String subject,
			Descriptor descriptor) {
		return of(client, subject, descriptor, SchemaIdSource.LOOKUP, WireFormat.DEFAULT_MAX_BYTES);
	}

	/**
	 * Create a serializer.
	 * @param <T> the message type
	 * @param client the registry client
	 * @param subject the subject
	 * @param descriptor the generated type's descriptor
	 * @param idSource how the schema id is found; {@link SchemaIdSource#AUTO_REGISTER}
	 * registers the type's file as Confluent's clients do (the serialized descriptor, each
	 * import a reference); {@link SchemaIdSource#LOOKUP} finds it in that form, as
	 * .proto text, or with known types as references (as Confluent's Python client
	 * registers them);
	 * with {@link SchemaIdSource#LATEST_VERSION} the latest version must be the type's own
	 * file
	 * @param maxBytes the largest framed message produced, 5 bytes to 1 GiB
	 * @return the serializer
	 * @throws IllegalArgumentException when the type's file cannot be a registry schema
	 * (editions, groups)
	 * @throws RegistryException when the registry fails or does not have the schema
	 * @throws org.apache.kafka.common.errors.SerializationException caused by a
	 * {@link dev.lockstep.registry.DataContractException} when the schema carries a data-contract
	 * rule to run on write
	 * @throws SerializationException when the latest version is not the type's schema
	 */
	public static <T extends Message> ProtobufSerializer<T> of(RegistryClient client, String subject,
			Descriptor descriptor, SchemaIdSource idSource, int maxBytes) {
		WireFormat.checkMaxBytes(maxBytes);
		ProtobufSchema schema = ProtobufSchema.of(descriptor);
		long id = switch (idSource) {
			case LOOKUP -> lookup(client, subject, schema);
			case AUTO_REGISTER -> client.register(subject, withReferences(client, schema, true, Form.DESCRIPTOR));
			case LATEST_VERSION -> latestId(client, client.latestSubjectVersion(subject), schema);
		};
		return new ProtobufSerializer<>(descriptor, schema, WriterSchemas.writable(client, subject, id), maxBytes);
	}

	/** The forms a file may have been registered in, in the order a look-up tries them. */
	private enum Form {

		/** The serialized descriptor, known types skipped: Confluent's Java clients and Lockstep. */
		DESCRIPTOR,

		/** {@code .proto} text, known types skipped: Lockstep before it registered descriptors. */
		TEXT,

		/** The serialized descriptor, every import a reference: Confluent's Python client by default. */
		DESCRIPTOR_EVERY_IMPORT_REFERENCED,

		/** The serialized descriptor, {@code google/protobuf/*} skipped: that client with {@code skip.known.types}. */
		DESCRIPTOR_PROTOBUF_TYPES_SKIPPED;

		boolean references(String imported) {
			return switch (this) {
				case DESCRIPTOR, TEXT -> !KnownTypes.isKnown(imported);
				case DESCRIPTOR_EVERY_IMPORT_REFERENCED -> true;
				case DESCRIPTOR_PROTOBUF_TYPES_SKIPPED -> !imported.startsWith("google/protobuf/");
			};
		}

	}

	// A registry comparing texts finds each form only as it was registered; a form that
	// would send what an earlier one sent is not tried.
	private static long lookup(RegistryClient client, String subject, ProtobufSchema schema) {
		Set<String> knownImports = new HashSet<>();
		knownImports(schema.file(), knownImports, new HashSet<>());
		RegistryException notFound = null;
		for (Form form : Form.values()) {
			if ((form == Form.DESCRIPTOR_EVERY_IMPORT_REFERENCED && knownImports.isEmpty())
					|| (form == Form.DESCRIPTOR_PROTOBUF_TYPES_SKIPPED
							&& knownImports.stream().allMatch((name) -> !form.references(name)))) {
				continue;
			}
			try {
				return client.lookup(subject, withReferences(client, schema, false, form));
			}
			catch (RegistryException ex) {
				if (ex.statusCode() != 404) {
					// The registry failed: that, not "not found", is what the caller must see.
					throw ex;
				}
				if (notFound == null) {
					notFound = ex;
				}
				else {
					notFound.addSuppressed(ex);
				}
			}
		}
		throw notFound;
	}

	// The known types a file imports, directly or through its imports.
	private static void knownImports(FileDescriptor file, Set<String> known, Set<String> visited) {
		for (FileDescriptor imported : file.getDependencies()) {
			if (visited.add(imported.getName())) {
				if (KnownTypes.isKnown(imported.getName())) {
					known.add(imported.getName());
				}
				knownImports(imported, known, visited);
			}
		}
	}

	// Each imported file the form references is a reference to the subject named by its
	// import path, as Confluent's default reference subject names it: registered (or
	// looked up) first.
	private static RegistrySchema withReferences(RegistryClient client, ProtobufSchema schema, boolean register,
			Form form) {
		List<SchemaReference> references = new ArrayList<>();
		for (FileDescriptor imported : schema.file().getDependencies()) {
			if (!form.references(imported.getName())) {
				continue;
			}
			ProtobufSchema importedSchema = ProtobufSchema.of(imported);
			RegistrySchema registrySchema = withReferences(client, importedSchema, register, form);
			if (register) {
				client.register(imported.getName(), registrySchema);
			}
			SubjectVersion version = client.lookupVersion(imported.getName(), registrySchema);
			references.add(new SchemaReference(imported.getName(), imported.getName(), version.version()));
		}
		return (form == Form.TEXT) ? schema.registrySchema(references) : schema.serializedRegistrySchema(references);
	}

	/**
	 * Encode a message, framed with the resolved schema id and its message indexes.
	 * @param value the message, or {@code null}
	 * @return the framed message, or {@code null} for a {@code null} value
	 * @throws InvalidDataException when the framed message would be too large
	 * @throws SerializationException when the value is a message of another type
	 */
	public byte[] serialize(T value) {
		if (value == null) {
			return null;
		}
		if (value.getDescriptorForType() != this.descriptor) {
			throw new SerializationException("A " + value.getDescriptorForType().getFullName()
					+ " given to the serializer of " + this.descriptor.getFullName());
		}
		int size = value.getSerializedSize();
		if ((long) size + this.header.length > this.maxBytes) {
			throw new InvalidDataException("Framed message of " + ((long) size + this.header.length)
					+ " bytes exceeds the limit of " + this.maxBytes + " bytes");
		}
		byte[] message = new byte[this.header.length + size];
		System.arraycopy(this.header, 0, message, 0, this.header.length);
		try {
			CodedOutputStream out = CodedOutputStream.newInstance(message, this.header.length, size);
			value.writeTo(out);
			out.checkNoSpaceLeft();
		}
		catch (IOException ex) {
			throw new SerializationException("Could not write a " + this.descriptor.getFullName(), ex);
		}
		return message;
	}

	/**
	 * Return the id written in every message.
	 * @return the schema id
	 */
	public long schemaId() {
		return this.schemaId;
	}

	private static long latestId(RegistryClient client, SubjectVersion latest, ProtobufSchema schema) {
		if (!latest.schema().type().equals(RegistrySchema.PROTOBUF)) {
			throw new SerializationException("The latest version of subject " + latest.subject() + " is a "
					+ latest.schema().type() + " schema, not PROTOBUF");
		}
		ProtobufSchema latestSchema;
		try {
			latestSchema = ProtobufSchema.parse(latest.schema().text(), client.referencedSchemas(latest.schema()));
		}
		catch (IllegalArgumentException | UnsupportedSchemaException ex) {
			throw new SerializationException("The latest version of subject " + latest.subject() + ": "
					+ ex.getMessage(), ex);
		}
		// Compared as Lockstep prints both, so that the registry's formatting does not matter.
		if (!ProtoPrinter.print(latestSchema.file()).equals(schema.text())) {
			throw new SerializationException("The latest version (" + latest.version() + ") of subject "
					+ latest.subject() + " is not the messages' schema; Lockstep writes messages only with an id "
					+ "of their own schema");
		}
		return latest.id();
	}

}
