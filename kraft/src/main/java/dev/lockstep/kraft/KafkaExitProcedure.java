package dev.lockstep.kraft;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;

/**
 * Makes Kafka's request to end the JVM (a broker's fatal error calls Kafka's {@code Exit})
 * throw instead, for a broker that runs inside an application's or a test's JVM. Kafka's
 * {@code Exit} is not public API and moved in Kafka 4.4 (to
 * {@code org.apache.kafka.common.utils.internals}): this class is the one place that
 * reaches it, by name, on every Kafka line.
 */
public final class KafkaExitProcedure {

	// Kafka 4.4 and later, then Kafka 3.x to 4.3.
	private static final List<String> EXIT_CLASSES = List.of("org.apache.kafka.common.utils.internals.Exit",
			"org.apache.kafka.common.utils.Exit");

	private KafkaExitProcedure() {
	}

	/**
	 * From now on, Kafka's exit and halt requests in this JVM throw an
	 * {@link IllegalStateException} naming the status and Kafka's message.
	 * @param what what runs the broker, for the exception's message
	 * @throws IllegalStateException when no known {@code Exit} class is on the class path
	 */
	public static void throwInstead(String what) {
		Class<?> exit = exitClass();
		try {
			Class<?> procedure = Class.forName(exit.getName() + "$Procedure", true, exit.getClassLoader());
			Object throwing = Proxy.newProxyInstance(exit.getClassLoader(), new Class<?>[] { procedure },
					(proxy, method, args) -> {
						if (method.getDeclaringClass() == Object.class) {
							return objectMethod(proxy, method, args);
						}
						throw new IllegalStateException(
								what + ": Kafka asked to end the JVM with status " + args[0] + ": " + args[1]);
					});
			exit.getMethod("setExitProcedure", procedure).invoke(null, throwing);
			exit.getMethod("setHaltProcedure", procedure).invoke(null, throwing);
		}
		catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException ex) {
			throw new IllegalStateException("Kafka's " + exit.getName() + " has no exit procedure to set", ex);
		}
		catch (InvocationTargetException ex) {
			throw new IllegalStateException("Setting Kafka's exit procedure failed", ex.getCause());
		}
	}

	private static Class<?> exitClass() {
		for (String name : EXIT_CLASSES) {
			try {
				return Class.forName(name, false, KafkaExitProcedure.class.getClassLoader());
			}
			catch (ClassNotFoundException ex) {
				// Not this Kafka line's.
			}
		}
		throw new IllegalStateException("None of " + EXIT_CLASSES + " is on the class path: an unknown Kafka line");
	}

	private static Object objectMethod(Object proxy, Method method, Object[] args) {
		return switch (method.getName()) {
			case "equals" -> proxy == args[0];
			case "hashCode" -> System.identityHashCode(proxy);
			default -> "Kafka exit procedure that throws";
		};
	}

}
