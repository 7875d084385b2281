package dev.lockstep.autoconfigure.validation;

import java.beans.PropertyDescriptor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.lockstep.registry.internal.Names;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Refuses properties under a {@code @ConfigurationProperties} prefix that bind to nothing,
 * such as {@code lockstep.security.require-encrytion}: Spring Boot would ignore them and
 * run with the defaults. Whether a property binds is decided by Spring Boot's own binder
 * ({@link NoUnboundElementsBindHandler}), so relaxed names (kebab-case, camelCase,
 * environment variables) and maps of beans behave as in binding proper; the nearest valid
 * key offered instead is derived from the properties classes by reflection, so new
 * properties are covered without a list to keep.
 */
public final class UnknownPropertiesCheck {

	private final String prefix;

	private final Class<?> type;

	private final List<ConfigurationPropertyName> others;

	/**
	 * Create the check of one properties class.
	 * @param prefix its prefix, such as {@code lockstep}
	 * @param type the properties class
	 * @param others prefixes under {@code prefix} that belong to something else, whose
	 * keys are not checked
	 */
	public UnknownPropertiesCheck(String prefix, Class<?> type, String... others) {
		this.prefix = prefix;
		this.type = type;
		this.others = Arrays.stream(others).map(ConfigurationPropertyName::of).toList();
	}

	/**
	 * Refuse the first property of the environment under the prefix that does not bind.
	 * Values that do not convert are left to binding proper, which reports them.
	 * @param environment the environment
	 * @throws LockstepConfigurationException naming the property, its origin and the
	 * nearest valid key
	 */
	public void check(Environment environment) {
		KnownValuesHandler handler = new KnownValuesHandler();
		try {
			Binder.get(environment).bind(this.prefix, Bindable.of(this.type), handler);
		}
		catch (BindException ex) {
			if (!(ex.getCause() instanceof UnboundConfigurationPropertiesException unbound)) {
				return;
			}
			ConfigurationProperty first = unbound.getUnboundProperties()
				.stream()
				.filter((property) -> this.others.stream().noneMatch((other) -> other.isAncestorOf(property.getName())))
				.filter((property) -> !handler.boundAsEnvironmentVariable(property))
				.min(Comparator.comparing(ConfigurationProperty::getName))
				.orElse(null);
			if (first == null) {
				return;
			}
			String name = first.getName().toString();
			String origin = (first.getOrigin() != null) ? first.getOrigin().toString() : null;
			throw new LockstepConfigurationException(name, origin,
					"'" + name + "' is not a " + this.prefix + " property",
					"Did you mean '" + nearest(first.getName()) + "'? Unknown " + this.prefix
							+ ".* keys are refused rather than ignored.");
		}
	}

	/**
	 * Return the valid key nearest to an unknown one: the key patterns of the properties
	 * classes, with the map keys (worker, producer, topic names) taken from the unknown key.
	 * @param unknown the unknown key
	 * @return the nearest valid key
	 */
	String nearest(ConfigurationPropertyName unknown) {
		List<String> elements = new ArrayList<>();
		for (int i = 0; i < unknown.getNumberOfElements(); i++) {
			elements.add(unknown.getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
		}
		List<String> candidates = new ArrayList<>();
		for (List<String> pattern : patterns()) {
			List<String> candidate = new ArrayList<>();
			for (int i = 0; i < pattern.size(); i++) {
				String element = pattern.get(i);
				candidate.add(element.equals("*") ? ((i < elements.size()) ? elements.get(i) : "<name>") : element);
			}
			candidates.add(String.join(".", candidate));
		}
		return Names.nearest(String.join(".", elements), candidates);
	}

	/**
	 * Every key the properties class binds, as element lists: {@code *} stands for a map
	 * key; a free map ({@code Map<String, String>}) is one key, whatever follows it binds.
	 * @return the key patterns
	 */
	List<List<String>> patterns() {
		List<List<String>> patterns = new ArrayList<>();
		collect(new ArrayList<>(List.of(this.prefix.split("\\."))), ResolvableType.forClass(this.type), patterns);
		return patterns;
	}

	private static void collect(List<String> path, ResolvableType type, List<List<String>> patterns) {
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type.toClass())) {
			Method getter = descriptor.getReadMethod();
			if (getter == null || getter.getDeclaringClass() == Object.class) {
				continue;
			}
			ResolvableType propertyType = ResolvableType.forMethodReturnType(getter, type.toClass());
			if (descriptor.getWriteMethod() == null && !isAggregateOrBean(propertyType)) {
				continue;
			}
			List<String> child = new ArrayList<>(path);
			child.add(DataObjectPropertyName.toDashedForm(descriptor.getName()));
			if (Map.class.isAssignableFrom(propertyType.toClass())) {
				ResolvableType valueType = propertyType.asMap().getGeneric(1);
				if (isBean(valueType.toClass())) {
					child.add("*");
					collect(child, valueType, patterns);
					continue;
				}
			}
			else if (isBean(propertyType.toClass())) {
				collect(child, propertyType, patterns);
				continue;
			}
			patterns.add(child);
		}
	}

	private static boolean isAggregateOrBean(ResolvableType type) {
		Class<?> resolved = type.toClass();
		return Map.class.isAssignableFrom(resolved) || Collection.class.isAssignableFrom(resolved)
				|| isBean(resolved);
	}

	/**
	 * Whether the binder binds a type property by property: not a scalar the binder
	 * converts from one value ({@code java.*}, primitives, enums, arrays) and with at
	 * least one bindable property.
	 */
	private static boolean isBean(Class<?> type) {
		if (type.isPrimitive() || type.isEnum() || type.isArray() || type.getName().startsWith("java.")
				|| Map.class.isAssignableFrom(type) || Collection.class.isAssignableFrom(type)) {
			return false;
		}
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
			Method getter = descriptor.getReadMethod();
			if (getter != null && getter.getDeclaringClass() != Object.class && (descriptor.getWriteMethod() != null
					|| isAggregateOrBean(ResolvableType.forMethodReturnType(getter, type)))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Spring Boot's unbound-elements check, except that a value that does not convert
	 * counts as bound: its key is known, and binding proper reports the value.
	 */
	private static final class KnownValuesHandler extends NoUnboundElementsBindHandler {

		/** The bound names as elements split at their dashes: an environment variable's form. */
		private final Set<List<String>> boundWords = new HashSet<>();

		KnownValuesHandler() {
			super(BindHandler.DEFAULT);
		}

		@Override
		public Object onSuccess(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
				Object result) {
			this.boundWords.add(words(name));
			return super.onSuccess(name, target, context, result);
		}

		/**
		 * Whether an environment variable bound under its underscores-for-dashes form
		 * ({@code LOCKSTEP_SECURITY_REQUIRE_ENCRYPTION}), which Spring Boot binds but which
		 * the unbound-elements check reads as {@code lockstep.security.require.encryption}.
		 */
		boolean boundAsEnvironmentVariable(ConfigurationProperty property) {
			return property.getSource().getUnderlyingSource() instanceof SystemEnvironmentPropertySource
					&& this.boundWords.contains(words(property.getName()));
		}

		private static List<String> words(ConfigurationPropertyName name) {
			List<String> words = new ArrayList<>();
			for (int i = 0; i < name.getNumberOfElements(); i++) {
				words.addAll(List.of(name.getElement(i, ConfigurationPropertyName.Form.DASHED).split("-")));
			}
			return words;
		}

		@Override
		public Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
				Exception error) throws Exception {
			if (error instanceof UnboundConfigurationPropertiesException) {
				throw error;
			}
			onSuccess(name, target, context, error);
			return null;
		}

	}

}
