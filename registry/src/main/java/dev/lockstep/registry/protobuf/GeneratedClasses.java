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
 * ({@link ProtobufSchema#javaClassName}) and kept by class name. A class is used only when
 * it is a generated message of the writer message's full name.
 */
final class GeneratedClasses {

	private final ClassLoader classLoader;

	private final BoundedCache<String, Parser<? extends Message>> parsers;

	GeneratedClasses(ClassLoader classLoader, int cacheCapacity) {
		this.classLoader = classLoader;
		this.parsers = new BoundedCache<>(cacheCapacity);
	}

	/**
	 * Return the parser of a writer message's generated class.
	 * @throws InvalidDataException when there is no such class or it is another message
	 */
	Parser<? extends Message> parser(ProtobufSchema schema, Descriptor writer) {
		String className;
		try {
			className = schema.javaClassName(writer);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidDataException(ex.getMessage(), ex);
		}
		Parser<? extends Message> parser = this.parsers.get(className);
		if (parser == null) {
			Message defaultInstance = defaultInstance(className, writer);
			parser = defaultInstance.getParserForType();
			this.parsers.put(className, parser);
		}
		return parser;
	}

	@SuppressWarnings("unchecked")
	private Message defaultInstance(String className, Descriptor writer) {
		Class<?> type;
		try {
			// Not initialised until it is known to be a message: naming a class must not run its code.
			type = Class.forName(className, false, this.classLoader);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			throw new InvalidDataException("No generated class " + className + " of writer message "
					+ writer.getFullName() + " on the class path", ex);
		}
		if (!Message.class.isAssignableFrom(type) || type == DynamicMessage.class) {
			throw new InvalidDataException(className + ", named by writer message " + writer.getFullName()
					+ ", is not a generated Protobuf message");
		}
		Message defaultInstance;
		try {
			defaultInstance = Internal.getDefaultInstance((Class<Message>) type);
		}
		catch (RuntimeException ex) {
			throw new InvalidDataException(className + ", named by writer message " + writer.getFullName()
					+ ", is not a generated Protobuf message: " + ex.getMessage(), ex);
		}
		String fullName = defaultInstance.getDescriptorForType().getFullName();
		if (!fullName.equals(writer.getFullName())) {
			throw new InvalidDataException(className + " is a " + fullName + ", not the writer's "
					+ writer.getFullName());
		}
		return defaultInstance;
	}

}
