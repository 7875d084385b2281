package dev.lockstep.registry.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Internal;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import dev.lockstep.registry.InvalidDataException;
import dev.lockstep.registry.internal.BoundedCache;

/**
 * The generated classes of writers' messages, found by the names protoc gives them
 * ({@link ProtobufSchema#javaClassName}) and kept per writer message, a class that cannot
 * be used included. A class is used only when it is a generated message of the writer
 * message's full name.
 */
final class GeneratedClasses {

	private final ClassLoader classLoader;

	// Per writer message (each writer schema's descriptors are its own objects).
	private final BoundedCache<Descriptor, Generated> classes;

	GeneratedClasses(ClassLoader classLoader, int cacheCapacity) {
		this.classLoader = classLoader;
		this.classes = new BoundedCache<>(cacheCapacity);
	}

	/**
	 * Return the parser of a writer message's generated class.
	 * @throws InvalidDataException when there is no such class or it is another message
	 */
	Parser<? extends Message> parser(ProtobufSchema schema, Descriptor writer) {
		Generated generated = this.classes.get(writer);
		if (generated == null) {
			generated = find(schema, writer);
			this.classes.put(writer, generated);
		}
		if (generated.parser() == null) {
			throw new InvalidDataException(generated.refusal());
		}
		return generated.parser();
	}

	@SuppressWarnings("unchecked")
	private Generated find(ProtobufSchema schema, Descriptor writer) {
		String className;
		try {
			className = schema.javaClassName(writer);
		}
		catch (IllegalArgumentException ex) {
			return Generated.refused(ex.getMessage());
		}
		Class<?> type;
		try {
			// Not initialised until it is known to be a message: naming a class must not run its code.
			type = Class.forName(className, false, this.classLoader);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return Generated.refused("No generated class " + className + " of writer message " + writer.getFullName()
					+ " on the class path");
		}
		if (!Message.class.isAssignableFrom(type) || type == DynamicMessage.class) {
			return Generated.refused(className + ", named by writer message " + writer.getFullName()
					+ ", is not a generated Protobuf message");
		}
		Message defaultInstance;
		try {
			defaultInstance = Internal.getDefaultInstance((Class<Message>) type);
		}
		catch (RuntimeException | LinkageError ex) {
			// Abstract, or its generated code does not load (a protoc/runtime version mismatch).
			return Generated.refused(className + ", named by writer message " + writer.getFullName()
					+ ", is not a usable generated Protobuf message: " + ex);
		}
		String fullName = defaultInstance.getDescriptorForType().getFullName();
		if (!fullName.equals(writer.getFullName())) {
			return Generated.refused(className + " is a " + fullName + ", not the writer's " + writer.getFullName());
		}
		return new Generated(defaultInstance.getParserForType(), null);
	}

	/** A writer message's class: its parser, or why there is none. */
	private record Generated(Parser<? extends Message> parser, String refusal) {

		static Generated refused(String refusal) {
			return new Generated(null, refusal);
		}

	}

}
