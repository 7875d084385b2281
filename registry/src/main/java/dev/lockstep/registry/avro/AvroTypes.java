package dev.lockstep.registry.avro;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import dev.lockstep.registry.InvalidDataException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.DatumReader;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;

/**
 * Where Lockstep draws the line between trusted and untrusted Avro: the application's
 * generated classes are trusted; schemas that arrive from a registry are not. Only the
 * generated class the application names (or one found by name that is a generated
 * {@link SpecificRecord}) is ever instantiated, and untrusted schemas are checked before
 * a reader is built from them.
 */
public final class AvroTypes {

	/**
	 * Generic data for untrusted writer schemas. Avro's fast reader honours a schema's
	 * {@code java-class} property by instantiating that class from the string it reads;
	 * the classic reader used here never looks at it.
	 */
	private static final GenericData UNTRUSTED_GENERIC_DATA = new GenericData();

	static {
		UNTRUSTED_GENERIC_DATA.setFastReaderEnabled(false);
	}

	private AvroTypes() {
	}

	/**
	 * Return the schema of a generated record class.
	 * @param type the generated class
	 * @return its schema
	 */
	public static Schema schemaOf(Class<? extends SpecificRecord> type) {
		return SpecificData.getForClass(type).getSchema(type);
	}

	/**
	 * Load a class by name for decoding, accepting only generated Avro records.
	 * @param className the class name
	 * @param classLoader where to look
	 * @return the class
	 * @throws IllegalArgumentException when the class does not exist or is not a
	 * {@link SpecificRecord}
	 */
	public static Class<? extends SpecificRecord> trustedRecordClass(String className, ClassLoader classLoader) {
		Class<?> type;
		try {
			// Not initialised: naming a class must not run its static code.
			type = Class.forName(className, false, classLoader);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			throw new IllegalArgumentException("No class " + className + " on the class path", ex);
		}
		if (!SpecificRecord.class.isAssignableFrom(type)) {
			throw new IllegalArgumentException(className + " is not a generated Avro record (SpecificRecord)");
		}
		return type.asSubclass(SpecificRecord.class);
	}

	/**
	 * Build a reader that decodes data written with {@code writer} into the generated
	 * {@code type}, after checking that Avro's resolution rules allow it.
	 * @throws InvalidDataException when the writer schema cannot be read as the type
	 */
	static <T extends SpecificRecord> DatumReader<T> specificReader(Schema writer, Class<T> type, int maxBytes) {
		checkUntrusted(writer, maxBytes);
		Schema reader = schemaOf(type);
		checkCompatible(writer, reader);
		return new SpecificDatumReader<>(writer, reader, SpecificData.getForClass(type));
	}

	/**
	 * Build a reader that decodes data into {@link org.apache.avro.generic.GenericRecord}s
	 * of the writer schema; no class named by the schema is loaded.
	 */
	static <T> DatumReader<T> genericReader(Schema writer, int maxBytes) {
		checkUntrusted(writer, maxBytes);
		return new GenericDatumReader<>(writer, writer, UNTRUSTED_GENERIC_DATA);
	}

	private static void checkCompatible(Schema writer, Schema reader) {
		SchemaPairCompatibility compatibility = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
		if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
			throw new InvalidDataException("Writer schema " + writer.getFullName() + " cannot be read as "
					+ reader.getFullName() + ": " + compatibility.getResult().getIncompatibilities());
		}
	}

	/**
	 * Refuse schema features that would make a reader allocate more than a message can
	 * hold: a fixed type is allocated by its declared size before any byte is read.
	 */
	static void checkUntrusted(Schema schema, int maxBytes) {
		checkUntrusted(schema, maxBytes, Collections.newSetFromMap(new IdentityHashMap<>()));
	}

	private static void checkUntrusted(Schema schema, int maxBytes, Set<Schema> seen) {
		if (!seen.add(schema)) {
			return;
		}
		switch (schema.getType()) {
			case FIXED -> {
				if (schema.getFixedSize() > maxBytes) {
					throw new InvalidDataException("Writer schema declares fixed " + schema.getFullName() + " of "
							+ schema.getFixedSize() + " bytes, larger than the " + maxBytes + "-byte message limit");
				}
			}
			case RECORD -> schema.getFields().forEach((field) -> checkUntrusted(field.schema(), maxBytes, seen));
			case ARRAY -> checkUntrusted(schema.getElementType(), maxBytes, seen);
			case MAP -> checkUntrusted(schema.getValueType(), maxBytes, seen);
			case UNION -> schema.getTypes().forEach((type) -> checkUntrusted(type, maxBytes, seen));
			default -> {
			}
		}
	}

}
