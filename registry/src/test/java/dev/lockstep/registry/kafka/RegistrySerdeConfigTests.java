package dev.lockstep.registry.kafka;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.lockstep.registry.SchemaIdFraming;
import dev.lockstep.registry.SchemaIdSource;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

class RegistrySerdeConfigTests {

	private static Map<String, Object> base() {
		Map<String, Object> configs = new HashMap<>();
		configs.put("schema.registry.url", "http://127.0.0.1:1");
		return configs;
	}

	@Test
	void kafkaClientKeysPassThroughUntouched() {
		Map<String, Object> configs = base();
		configs.put("bootstrap.servers", "127.0.0.1:9092");
		configs.put("linger.ms", 5);
		configs.put("some.custom.interceptor.setting", "x");
		Map<String, Object> given = Map.copyOf(configs);
		RegistrySerdeConfig config = RegistrySerdeConfig.of(configs, false);
		RegistrySerdeConfig registryKeysOnly = RegistrySerdeConfig.of(base(), false);
		assertThat(config.createClient()).isNotNull();
		assertThat(configs).as("the caller's configuration").isEqualTo(given);
		assertThat(settings(config)).as("what the codec reads").isEqualTo(settings(registryKeysOnly));
	}

	private static List<Object> settings(RegistrySerdeConfig config) {
		return List.of(config.autoRegister(), config.useLatestVersion(), config.schemaIdSource(),
				config.specificReader(), config.subjectNameStrategy().getClass(), config.maxMessageBytes(),
				config.cacheCapacity());
	}

	@Test
	void unknownRegistryKeyIsRefusedWithTheNearestValidKey() {
		Map<String, Object> configs = base();
		configs.put("schema.registry.ulr", "http://127.0.0.1:1");
		assertThatExceptionOfType(ConfigException.class).isThrownBy(() -> RegistrySerdeConfig.of(configs, false))
			.withMessageContaining("Unknown schema registry key 'schema.registry.ulr'")
			.withMessageContaining("did you mean 'schema.registry.url'");
		Map<String, Object> typo = base();
		typo.put("auto.register.schema", true);
		assertThatExceptionOfType(ConfigException.class).isThrownBy(() -> RegistrySerdeConfig.of(typo, false))
			.withMessageContaining("did you mean 'auto.register.schemas'");
		Map<String, Object> lockstepTypo = base();
		lockstepTypo.put("lockstep.registry.timeout", 5);
		assertThatExceptionOfType(ConfigException.class).isThrownBy(() -> RegistrySerdeConfig.of(lockstepTypo, false))
			.withMessageContaining("did you mean 'lockstep.registry.timeout.ms'");
	}

	@Test
	void keysThatWouldChangeDataPlacementOrSecurityAreRefusedWhenSet() {
		for (Map.Entry<String, Object> refused : Map.<String, Object>of("use.schema.id", 5,
				"context.name.strategy", "x.MyStrategy", "use.latest.with.metadata", "application.major.version=2", "proxy.host", "proxy.example", "avro.use.logical.type.converters",
				"true", "bearer.auth.logical.cluster", "lsrc-1")
			.entrySet()) {
			Map<String, Object> configs = base();
			configs.put(refused.getKey(), refused.getValue());
			assertThatExceptionOfType(ConfigException.class).as(refused.getKey())
				.isThrownBy(() -> RegistrySerdeConfig.of(configs, false))
				.withMessageContaining(refused.getKey())
				.withMessageContaining("would change data, placement or security");
		}
	}

	@Test
	void schemaIdFramingKeysNameConfluentsClassesOfWhatLockstepDoes() {
		String ids = "io.confluent.kafka.serializers.schema.id.";
		Map<String, Object> configs = base();
		configs.put("value.schema.id.deserializer", ids + "DualSchemaIdDeserializer");
		configs.put("key.schema.id.deserializer", ids + "DualSchemaIdDeserializer");
		configs.put("value.schema.id.serializer", ids + "HeaderSchemaIdSerializer");
		configs.put("key.schema.id.serializer", "PrefixSchemaIdSerializer");
		assertThat(RegistrySerdeConfig.of(configs, false).schemaIdFraming()).isEqualTo(SchemaIdFraming.HEADER);
		assertThat(RegistrySerdeConfig.of(configs, true).schemaIdFraming()).isEqualTo(SchemaIdFraming.PREFIX);
		assertThat(RegistrySerdeConfig.of(base(), false).schemaIdFraming()).isEqualTo(SchemaIdFraming.PREFIX);
		Map<String, Object> prefixOnlyReader = base();
		prefixOnlyReader.put("key.schema.id.deserializer", ids + "PrefixSchemaIdDeserializer");
		assertThatExceptionOfType(ConfigException.class).isThrownBy(() -> RegistrySerdeConfig.of(prefixOnlyReader, true))
			.withMessageContaining("key.schema.id.deserializer");
		Map<String, Object> otherWriter = base();
		otherWriter.put("value.schema.id.serializer", "com.example.MySchemaIdSerializer");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> RegistrySerdeConfig.of(otherWriter, false).schemaIdFraming())
			.withMessageContaining("value.schema.id.serializer");
	}

	@Test
	void blankKeyStoreSettingsReadAsUnset() {
		Map<String, Object> configs = base();
		configs.put("schema.registry.ssl.keystore.location", "");
		configs.put("schema.registry.ssl.keystore.password", "");
		configs.put("schema.registry.ssl.key.password", " ");
		assertThatNoException().isThrownBy(() -> RegistrySerdeConfig.of(configs, false).createClient());
	}

	@Test
	void refusedKeysAtTheirDefaultsAreAccepted() {
		for (Map.Entry<String, Object> atDefault : Map.<String, Object>of("use.schema.id",
				-1, "proxy.host", "")
			.entrySet()) {
			Map<String, Object> configs = base();
			configs.put(atDefault.getKey(), atDefault.getValue());
			assertThatNoException().as(atDefault.getKey()).isThrownBy(() -> RegistrySerdeConfig.of(configs, false));
		}
	}

	@Test
	void harmlessUnsupportedKeysAreAcceptedWithOneWarningPerProcess() {
		Logger logger = (Logger) LoggerFactory.getLogger(RegistrySerdeConfig.class);
		ListAppender<ILoggingEvent> appender = new ListAppender<>();
		appender.start();
		logger.addAppender(appender);
		try {
			Map<String, Object> configs = base();
			List<String> harmless = List.of("latest.cache.size", "latest.compatibility.strict", "latest.cache.ttl.sec",
					"max.schemas.per.subject", "skip.known.types");
			harmless.forEach((key) -> configs.put(key, "1"));
			RegistrySerdeConfig.of(configs, false).createClient();
			RegistrySerdeConfig.of(configs, true).createClient();
			for (String key : harmless) {
				assertThat(appender.list).as(key)
					.filteredOn((event) -> event.getFormattedMessage().contains("'" + key + "'"))
					.singleElement()
					.satisfies((event) -> assertThat(event.getLevel()).isEqualTo(Level.WARN));
			}
		}
		finally {
			logger.detachAppender(appender);
		}
	}

	@Test
	void schemasAreLookedUpUnlessAutoRegisterOrTheLatestVersionIsAskedFor() {
		assertThat(RegistrySerdeConfig.of(base(), false).schemaIdSource()).isEqualTo(SchemaIdSource.LOOKUP);
		Map<String, Object> register = base();
		register.put("auto.register.schemas", "true");
		assertThat(RegistrySerdeConfig.of(register, false).schemaIdSource()).isEqualTo(SchemaIdSource.AUTO_REGISTER);
		Map<String, Object> latest = base();
		latest.put("use.latest.version", true);
		assertThat(RegistrySerdeConfig.of(latest, false).schemaIdSource()).isEqualTo(SchemaIdSource.LATEST_VERSION);
	}

	@Test
	void credentialSourcesOtherThanTheSupportedOnesAreRefused() {
		Map<String, Object> url = base();
		url.put("basic.auth.credentials.source", "URL");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> RegistrySerdeConfig.of(url, false).createClient())
			.withMessageContaining("Only USER_INFO");
		Map<String, Object> oauth = base();
		oauth.put("bearer.auth.credentials.source", "OAUTHBEARER");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> RegistrySerdeConfig.of(oauth, false).createClient())
			.withMessageContaining("Only STATIC_TOKEN");
	}

	@Test
	void secretsNeverAppearInErrors() {
		Map<String, Object> configs = base();
		configs.put("basic.auth.credentials.source", "USER_INFO");
		configs.put("basic.auth.user.info", "no-colon-s3cret");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> RegistrySerdeConfig.of(configs, false).createClient())
			.withMessageNotContaining("s3cret");
		Map<String, Object> both = base();
		both.put("basic.auth.user.info", "user:s3cret");
		both.put("bearer.auth.token", "t0ken");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> RegistrySerdeConfig.of(both, false).createClient())
			.withMessageContaining("exclusive")
			.withMessageNotContaining("s3cret")
			.withMessageNotContaining("t0ken");
	}

	@Test
	void hostnameVerificationCannotBeTurnedOff() {
		Map<String, Object> configs = base();
		configs.put("schema.registry.ssl.endpoint.identification.algorithm", "");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> RegistrySerdeConfig.of(configs, false).createClient())
			.withMessageContaining("Hostname verification");
	}

	@Test
	void autoRegisterIsOffByDefault() {
		assertThat(RegistrySerdeConfig.of(base(), false).autoRegister()).isFalse();
		Map<String, Object> configs = base();
		configs.put("auto.register.schemas", "true");
		assertThat(RegistrySerdeConfig.of(configs, false).autoRegister()).isTrue();
	}

	@Test
	void subjectNameStrategiesAcceptConfluentClassNames() {
		Map<String, Object> configs = base();
		configs.put("value.subject.name.strategy", "io.confluent.kafka.serializers.subject.RecordNameStrategy");
		configs.put("key.subject.name.strategy", "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy");
		assertThat(RegistrySerdeConfig.of(configs, false).subjectNameStrategy())
			.isEqualTo(SubjectNameStrategy.RECORD_NAME);
		assertThat(RegistrySerdeConfig.of(configs, true).subjectNameStrategy())
			.isEqualTo(SubjectNameStrategy.TOPIC_RECORD_NAME);
		assertThat(RegistrySerdeConfig.of(base(), true).subjectNameStrategy()).isEqualTo(SubjectNameStrategy.TOPIC_NAME);
		configs.put("value.subject.name.strategy", "com.example.CustomStrategy");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> RegistrySerdeConfig.of(configs, false).subjectNameStrategy())
			.withMessageContaining("TopicNameStrategy");
	}

	@Test
	void specificReaderFalseContradictsAConfiguredReaderClass() {
		Map<String, Object> configs = base();
		configs.put("specific.avro.reader", false);
		configs.put("lockstep.avro.value.type", "dev.lockstep.registry.test.Order");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> RegistrySerdeConfig.of(configs, false).specificReader())
			.withMessageContaining("contradicts");
	}

	@Test
	void missingUrlAndOutOfRangeOptionsAreRefused() {
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> RegistrySerdeConfig.of(Map.of(), false).createClient())
			.withMessageContaining("schema.registry.url");
		Map<String, Object> configs = base();
		configs.put("lockstep.registry.cache.capacity", 5000);
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> RegistrySerdeConfig.of(configs, false).createClient())
			.withMessageContaining("cacheCapacity");
		Map<String, Object> notNumber = base();
		notNumber.put("lockstep.registry.timeout.ms", "soon");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> RegistrySerdeConfig.of(notNumber, false).createClient());
	}

}
