package dev.lockstep.registry.internal;

/**
 * The class loader a serde loads configured classes with: the thread's context class
 * loader where there is one (an application server's or Spring Boot's), else the one
 * that loaded Lockstep, as Kafka's own serdes do. Internal: not API.
 */
public final class ClassLoaders {

	private ClassLoaders() {
	}

	/**
	 * Return the class loader for classes a serde's configuration names.
	 * @return the context class loader, or Lockstep's own
	 */
	public static ClassLoader contextOrLockstep() {
		ClassLoader context = Thread.currentThread().getContextClassLoader();
		return (context != null) ? context : ClassLoaders.class.getClassLoader();
	}

}
