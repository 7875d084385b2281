package dev.lockstep.registry.protobuf;

import java.util.List;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DescriptorProtos.FileOptions;

/**
 * Where protoc's Java generator puts a message's class: the package ({@code java_package},
 * else the file's package), then the outer class ({@code java_outer_classname}, else the
 * file's base name in camel case, with {@code OuterClass} appended when a type of the file
 * has that name) unless {@code java_multiple_files}, then the message's nesting.
 */
final class JavaClassNames {

	private JavaClassNames() {
	}

	/**
	 * Return the binary name of a message's generated class.
	 * @param message the message
	 * @param fileNamed whether the message's file carries the name protoc compiled it
	 * under (a registry's {@code .proto} text carries none)
	 * @return the class's binary name, such as {@code com.example.Orders$Order}
	 * @throws IllegalArgumentException when the name depends on a file name that is unknown
	 */
	static String of(Descriptor message, boolean fileNamed) {
		FileDescriptor file = message.getFile();
		FileOptions options = file.getOptions();
		String javaPackage = options.hasJavaPackage() ? options.getJavaPackage() : file.getPackage();
		StringBuilder name = new StringBuilder(javaPackage.isEmpty() ? "" : javaPackage + ".");
		if (!options.getJavaMultipleFiles()) {
			if (!options.hasJavaOuterClassname() && !fileNamed) {
				throw new IllegalArgumentException("The writer schema of " + message.getFullName()
						+ " has no java_outer_classname or java_multiple_files option and no file name, so the class "
						+ "protoc generated for it cannot be named");
			}
			name.append(outerClassName(file)).append('$');
		}
		StringBuilder nesting = new StringBuilder(message.getName());
		for (Descriptor outer = message.getContainingType(); outer != null; outer = outer.getContainingType()) {
			nesting.insert(0, outer.getName() + "$");
		}
		return name.append(nesting).toString();
	}

	private static String outerClassName(FileDescriptor file) {
		if (file.getOptions().hasJavaOuterClassname()) {
			return file.getOptions().getJavaOuterClassname();
		}
		String base = file.getName().substring(file.getName().lastIndexOf('/') + 1);
		String camel = camelCase(base.endsWith(".proto") ? base.substring(0, base.length() - 6) : base);
		return typeNamed(camel, file.getMessageTypes(), file.getEnumTypes())
				|| file.getServices().stream().anyMatch((service) -> service.getName().equals(camel))
						? camel + "OuterClass" : camel;
	}

	// protoc's rule: letters after an underscore, another separator or a digit are capitalized.
	private static String camelCase(String name) {
		StringBuilder camel = new StringBuilder(name.length());
		boolean capitalizeNext = true;
		for (char c : name.toCharArray()) {
			if (c >= 'a' && c <= 'z') {
				camel.append(capitalizeNext ? Character.toUpperCase(c) : c);
				capitalizeNext = false;
			}
			else if (c >= 'A' && c <= 'Z') {
				camel.append(c);
				capitalizeNext = false;
			}
			else if (c >= '0' && c <= '9') {
				camel.append(c);
				capitalizeNext = true;
			}
			else {
				capitalizeNext = true;
			}
		}
		return camel.toString();
	}

	private static boolean typeNamed(String name, List<Descriptor> messages, List<EnumDescriptor> enums) {
		return enums.stream().anyMatch((type) -> type.getName().equals(name)) || messages.stream()
			.anyMatch((type) -> type.getName().equals(name) || typeNamed(name, type.getNestedTypes(), type.getEnumTypes()));
	}

}
